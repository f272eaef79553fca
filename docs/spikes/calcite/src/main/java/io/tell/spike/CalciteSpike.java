package io.tell.spike;

import java.util.List;
import java.util.Properties;
import org.apache.calcite.avatica.util.Casing;
import org.apache.calcite.avatica.util.Quoting;
import org.apache.calcite.config.CalciteConnectionConfigImpl;
import org.apache.calcite.config.CalciteConnectionProperty;
import org.apache.calcite.jdbc.CalciteSchema;
import org.apache.calcite.jdbc.JavaTypeFactoryImpl;
import org.apache.calcite.plan.ConventionTraitDef;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.hep.HepPlanner;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelRoot;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.runtime.CalciteContextException;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParseException;
import org.apache.calcite.sql.parser.SqlParser;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.apache.calcite.sql.validate.SqlValidator;
import org.apache.calcite.sql.validate.SqlValidatorUtil;
import org.apache.calcite.sql2rel.SqlToRelConverter;
import org.apache.calcite.sql2rel.StandardConvertletTable;

/**
 * Spike for docs/sql-design.md: parse, validate, convert and optimise with Calcite's low-level
 * API (no JDBC driver, no Frameworks/Planner, no Enumerable), then run the plan with our own
 * executor. Run by {@code mvn -q -f docs/spikes/calcite/pom.xml package}.
 */
public final class CalciteSpike {
    static final SqlParser.Config PARSER = SqlParser.config()
            .withQuoting(Quoting.DOUBLE_QUOTE)
            .withUnquotedCasing(Casing.TO_UPPER)
            .withQuotedCasing(Casing.UNCHANGED)
            .withCaseSensitive(true)
            .withConformance(SqlConformanceEnum.DEFAULT);

    private final CalciteSchema root = SpikeCatalog.sample();
    private final RelDataTypeFactory types = new JavaTypeFactoryImpl();

    /** The logical plan after the Hep phase, with the Volcano planner its cluster was made with. */
    record Logical(RelNode rel, VolcanoPlanner volcano) {
    }

    private CalciteCatalogReader catalogReader() {
        Properties props = new Properties();
        props.setProperty(CalciteConnectionProperty.CASE_SENSITIVE.camelName(), "true");
        return new CalciteCatalogReader(root, List.of(), types, new CalciteConnectionConfigImpl(props));
    }

    private SqlValidator validator(CalciteCatalogReader catalog) {
        return SqlValidatorUtil.newValidator(SqlStdOperatorTable.instance(), catalog, types,
                SqlValidator.Config.DEFAULT.withConformance(SqlConformanceEnum.DEFAULT).withIdentifierExpansion(true));
    }

    /** Parse and validate only (for the timing breakdown). */
    SqlNode validated(String sql) throws SqlParseException {
        return validator(catalogReader()).validate(SqlParser.create(sql, PARSER).parseStmt());
    }

    /** Parse, validate, convert and run the Hep phase; {@code trace} prints the converted tree. */
    Logical logical(String sql, boolean trace) throws SqlParseException {
        SqlNode parsed = SqlParser.create(sql, PARSER).parseStmt();
        CalciteCatalogReader catalog = catalogReader();
        SqlValidator validator = validator(catalog);
        SqlNode validated = validator.validate(parsed);

        VolcanoPlanner volcano = new VolcanoPlanner();
        volcano.addRelTraitDef(ConventionTraitDef.INSTANCE);
        TellRules.all().forEach(volcano::addRule);
        RelOptCluster cluster = RelOptCluster.create(volcano, new RexBuilder(types));
        SqlToRelConverter converter = new SqlToRelConverter((rowType, query, schemaPath, viewPath) -> {
            throw new UnsupportedOperationException("views");
        }, validator, catalog, cluster, StandardConvertletTable.INSTANCE,
                SqlToRelConverter.config().withTrimUnusedFields(true).withExpand(false));
        RelRoot relRoot = converter.convertQuery(validated, false, true);
        RelNode logical = relRoot.rel;
        if (trace) {
            System.out.println("-- logical (SqlToRelConverter):\n" + RelOptUtil.toString(logical));
        }

        // Phase 1: deterministic rewrites with a HepPlanner (no cost model needed).
        HepPlanner hep = new HepPlanner(new HepProgramBuilder()
                .addRuleInstance(CoreRules.FILTER_PROJECT_TRANSPOSE)
                .addRuleInstance(CoreRules.PROJECT_MERGE)
                .addRuleInstance(CoreRules.PROJECT_REMOVE)
                .build());
        hep.setRoot(logical);
        return new Logical(hep.findBestExp(), volcano);
    }

    /** Everything from SQL text to an optimised physical plan; {@code trace} prints each stage. */
    RelNode plan(String sql, boolean trace) throws SqlParseException {
        Logical l = logical(sql, trace);
        // Phase 2: cost-based choice of physical operators in the TELL convention.
        l.volcano().setRoot(l.volcano().changeTraits(l.rel(), l.rel().getTraitSet().replace(TellRels.TELL)));
        RelNode physical = l.volcano().findBestExp();
        if (trace) {
            System.out.println("-- physical (VolcanoPlanner, TELL convention):\n"
                    + RelOptUtil.toString(physical, SqlExplainLevel.EXPPLAN_ATTRIBUTES));
        }
        return physical;
    }

    public static void main(String[] args) throws Exception {
        CalciteSpike spike = new CalciteSpike();
        String sql = "SELECT a, COUNT(*) FROM t WHERE b = ? GROUP BY a";
        System.out.println("== " + sql);
        RelNode plan = spike.plan(sql, true);
        Exec.Node exec = Exec.implement(plan);
        System.out.print("-- rows for ? = 2:\n" + Exec.render(exec.open(new Object[] {2})).get());

        String scan = "SELECT id FROM t WHERE a = 'x' AND id > 1";
        System.out.println("== " + scan);
        System.out.print("-- rows:\n" + Exec.render(Exec.implement(spike.plan(scan, true)).open(new Object[0])).get());

        System.out.println("== errors with positions");
        for (String bad : List.of("SELECT a FROM t WHERE", "SELECT nope FROM t", "SELECT a FROM t WHERE b = 'q' + 1")) {
            try {
                spike.plan(bad, false);
                System.out.println("accepted " + bad + " (implicit type coercion)");
            } catch (SqlParseException e) {
                System.out.println("parse   " + bad + " -> line " + e.getPos().getLineNum() + " col "
                        + e.getPos().getColumnNum() + ": " + e.getMessage().lines().findFirst().orElse(""));
            } catch (CalciteContextException e) {
                System.out.println("validate " + bad + " -> line " + e.getPosLine() + " col " + e.getPosColumn()
                        + ": " + e.getCause().getMessage());
            } catch (RuntimeException e) {
                System.out.println("other   " + bad + " -> " + e);
            }
        }

        System.out.println("== grammar probes (core parser)");
        for (String probe : List.of("SELECT * FROM t WHERE id = 1 FOR UPDATE", "CREATE INDEX i ON t (b)",
                "CREATE TABLE u (id INT PRIMARY KEY)", "SELECT * FROM t LIMIT 2 OFFSET 1",
                "SELECT * FROM t OFFSET 1 ROWS FETCH FIRST 2 ROWS ONLY", "EXPLAIN PLAN FOR SELECT * FROM t")) {
            try {
                SqlNode n = SqlParser.create(probe, PARSER).parseStmt();
                System.out.println("ok     " + probe + " -> " + n.getKind());
            } catch (SqlParseException e) {
                System.out.println("FAILS  " + probe + " -> col " + e.getPos().getColumnNum());
            }
        }

        System.out.println("== fast-path recognition on the logical tree (after Hep, before Volcano)");
        for (String q : List.of("SELECT a FROM t WHERE id = ?", "SELECT a FROM t WHERE id = 5 AND b = 1",
                "UPDATE t SET a = ? WHERE id = ?", "DELETE FROM t WHERE id = 3",
                "INSERT INTO t (id, a, b) VALUES (?, ?, ?)", "SELECT * FROM t WHERE id IN (1, 2, 3)",
                "SELECT * FROM t WHERE id IN (?, ?)")) {
            RelNode rel = spike.logical(q, false).rel();
            System.out.println(q + "\n" + RelOptUtil.toString(rel).indent(4) + "    => fast path: " + FastPath.recognise(rel));
        }

        System.out.println("== parameter probes (what literal lifting can and cannot turn into ?)");
        for (String q : List.of("SELECT ? FROM t", "SELECT CAST(a AS VARCHAR(?)) FROM t",
                "SELECT id FROM t ORDER BY 1 LIMIT ?", "SELECT id FROM t WHERE b = ? + 1")) {
            try {
                spike.logical(q, false);
                System.out.println("ok     " + q);
            } catch (SqlParseException e) {
                System.out.println("parse  " + q + " -> " + e.getMessage().lines().findFirst().orElse(""));
            } catch (CalciteContextException e) {
                System.out.println("valid. " + q + " -> " + e.getCause().getMessage());
            }
        }

        System.out.println("== planning cost (parse+validate+convert+hep+volcano), same SQL each time");
        for (int round = 0; round < 3; round++) {
            int n = 2000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                spike.logical(sql, false);
            }
            System.out.printf("round %d: front end + hep only: %.1f us per statement%n", round,
                    (System.nanoTime() - t0) / 1e3 / n);
        }
        for (int round = 0; round < 3; round++) {
            int n = 2000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                spike.validated(sql);
            }
            System.out.printf("round %d: parse + validate only: %.1f us per statement%n", round,
                    (System.nanoTime() - t0) / 1e3 / n);
        }
        System.out.println("== full planning (parse+validate+convert+hep+volcano), same SQL each time");
        for (int round = 0; round < 3; round++) {
            int n = 2000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                spike.plan(sql, false);
            }
            System.out.printf("round %d: %.1f us per statement%n", round, (System.nanoTime() - t0) / 1e3 / n);
        }
        long p0 = System.nanoTime();
        for (int i = 0; i < 20_000; i++) {
            SqlParser.create(sql, PARSER).parseStmt();
        }
        System.out.printf("parse only: %.1f us per statement%n", (System.nanoTime() - p0) / 1e3 / 20_000);
        long t0 = System.nanoTime();
        int n = 1_000_000;
        long rows = 0;
        for (int i = 0; i < n; i++) {
            for (Object[] r : exec.open(new Object[] {2})) {
                rows += r.length;
            }
        }
        System.out.printf("executing the cached plan: %.2f us per execution (%d)%n", (System.nanoTime() - t0) / 1e3 / n, rows);
    }
}
