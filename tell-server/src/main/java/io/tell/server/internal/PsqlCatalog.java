package io.tell.server.internal;

import io.tell.sql.ColumnDef;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.TableDef;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * psql 15's describe queries answered from Tell's catalog: {@code \d}, {@code \dt}, {@code \di}
 * (the relation list), {@code \d TABLE} (lookup by pattern, then the table, its columns, indexes,
 * foreign keys both ways; policies, statistics, publications, triggers and inheritance are always
 * empty), {@code \d INDEX}, {@code \dn} and {@code \l} (the one database, named as the client
 * named it). Each answer has exactly the columns psql reads by position.
 */
final class PsqlCatalog {
    private static final String MATCHES = " operator(pg_catalog.~) ";

    private PsqlCatalog() {
    }

    static List<PgColumn> columns(CatalogQuery q) {
        return switch (q.shape()) {
            case PSQL_RELATIONS -> CatalogAnswers.columns(q.labels().toArray(String[]::new)); // \dt+ has more

            case PSQL_LOOKUP -> CatalogAnswers.columns("oid:int4", "nspname", "relname");
            case PSQL_TABLE -> CatalogAnswers.columns("relchecks:int2", "relkind", "relhasindex:bool", "relhasrules:bool",
                    "relhastriggers:bool", "relrowsecurity:bool", "relforcerowsecurity:bool", "relhasoids:bool",
                    "relispartition:bool", "?column?", "reltablespace:int4", "reloftype", "relpersistence", "relreplident",
                    "amname");
            case PSQL_INDEX_COLUMNS -> CatalogAnswers.columns("attname", "format_type", "is_key", "indexdef");
            case PSQL_INDEX -> CatalogAnswers.columns("indisunique:bool", "indisprimary:bool", "indisclustered:bool",
                    "indisvalid:bool", "condeferrable:bool", "condeferred:bool", "indisreplident:bool",
                    "indnullsnotdistinct:bool", "amname", "relname", "pg_get_expr");
            case PSQL_COLUMNS -> q.has("a.attstorage")
                    ? CatalogAnswers.columns("attname", "format_type", "default", "attnotnull:bool", "attcollation",
                    "attidentity", "attgenerated", "attstorage", "attcompression", "attstattarget:int4", "col_description")
                    : CatalogAnswers.columns("attname", "format_type", "default", "attnotnull:bool", "attcollation",
                    "attidentity", "attgenerated");
            case PSQL_INDEXES -> CatalogAnswers.columns("relname", "indisprimary:bool", "indisunique:bool",
                    "indisclustered:bool", "indisvalid:bool", "pg_get_indexdef", "pg_get_constraintdef", "contype",
                    "condeferrable:bool", "condeferred:bool", "indisreplident:bool", "reltablespace:int4");
            case PSQL_FOREIGN_KEYS -> CatalogAnswers.columns("sametable:bool", "conname", "condef", "ontable");
            case PSQL_REFERENCED_BY -> CatalogAnswers.columns("conname", "ontable", "condef");
            case PSQL_SCHEMAS -> CatalogAnswers.columns("Name", "Owner");
            case PSQL_DATABASES -> CatalogAnswers.columns(q.labels().toArray(String[]::new));
            case PSQL_POLICIES -> CatalogAnswers.columns("polname", "polpermissive", "roles", "qual", "withcheck", "cmd");
            case PSQL_STATISTICS -> CatalogAnswers.columns("oid", "stxrelid", "nsp", "stxname", "columns", "ndist_enabled",
                    "deps_enabled", "mcv_enabled", "stxstattarget");
            case PSQL_PUBLICATIONS -> CatalogAnswers.columns("pubname", "?column?", "?column?");
            case PSQL_TRIGGERS -> CatalogAnswers.columns("tgname", "pg_get_triggerdef", "tgenabled", "tgisinternal", "parent");
            case PSQL_PARENTS -> CatalogAnswers.columns("oid");
            case PSQL_PARTITIONS -> CatalogAnswers.columns("oid", "relkind", "inhdetachpending", "pg_get_expr");
            default -> throw new IllegalArgumentException(q.shape().name());
        };
    }

    static List<Object[]> rows(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        return switch (q.shape()) {
            case PSQL_RELATIONS -> relations(q, view, parameters);
            case PSQL_LOOKUP -> lookup(q, view, parameters);
            case PSQL_TABLE -> relation(view, q.oidArgument("c.oid = ", parameters));
            case PSQL_INDEX_COLUMNS -> view.indexByOid(q.oidArgument("a.attrelid = ", parameters)).stream()
                    .flatMap(i -> i.columns().stream().map(c -> new Object[] {PgCatalogView.name(c),
                            PgCatalogView.formatType(i.table().columns().get(i.table().columnIndex(c)).type()), "yes",
                            PgCatalogView.name(c)})).toList();
            case PSQL_INDEX -> view.indexByOid(q.oidArgument("c.oid = ", parameters)).stream()
                    .map(i -> new Object[] {i.unique(), i.primary(), false, true, false, false, false, false, "btree",
                            PgCatalogView.relation(i.table().name()), null}).toList();
            case PSQL_COLUMNS -> described(q, view, parameters, "a.attrelid = ").stream()
                    .flatMap(t -> t.columns().stream()).map(c -> column(c, q.has("a.attstorage"))).toList();
            case PSQL_INDEXES -> described(q, view, parameters, "c.oid = ").stream()
                    .flatMap(t -> view.indexes(t).stream())
                    .sorted(Comparator.comparing((PgCatalogView.Index i) -> !i.primary()).thenComparing(PgCatalogView.Index::name))
                    .map(PsqlCatalog::index).toList();
            case PSQL_FOREIGN_KEYS -> described(q, view, parameters, "conrelid = ").stream()
                    .flatMap(t -> t.foreignKeys().stream().map(fk -> new Object[] {true, PgCatalogView.relation(fk.name()),
                            foreignKey(fk), PgCatalogView.relation(t.name())}))
                    .sorted(Comparator.comparing(r -> (String) r[1])).toList();
            case PSQL_REFERENCED_BY -> referencedBy(q, view, parameters);
            case PSQL_SCHEMAS -> view.schemas().stream().filter(regex(q.argument("n.nspname" + MATCHES, parameters))
                    .asMatchPredicate()).map(n -> new Object[] {n, PgCatalogView.OWNER}).toList();
            case PSQL_DATABASES -> List.<Object[]>of(q.labels().stream().map(label -> switch (label) {
                case "Name" -> view.database;
                case "Owner" -> PgCatalogView.OWNER;
                case "Encoding" -> "UTF8";
                case "Locale Provider" -> "libc";
                default -> null; // collation and privileges: Tell has neither
            }).toArray());
            default -> List.of(); // policies, statistics, publications, triggers, inheritance: Tell has none
        };
    }

    /** \d, \dt, \di (and their + forms): a row per relation, a value per label the query asked for. */
    private static List<Object[]> relations(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        List<String> kinds = q.inList("c.relkind in (");
        List<String> labels = q.labels();
        Pattern name = regex(q.argument("c.relname" + MATCHES, parameters)); // a table's or an index's
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : inSchema(q, view, parameters)) {
            String table = PgCatalogView.relation(t.name());
            String schema = PgCatalogView.schema(t.name());
            if (kinds.contains("r") && name.matcher(table).matches()) {
                out.add(row(labels, schema, table, "table", null));
            }
            if (kinds.contains("i")) {
                view.indexes(t).stream().filter(i -> name.matcher(i.name()).matches())
                        .forEach(i -> out.add(row(labels, schema, i.name(), "index", table)));
            }
        }
        int bySchema = Math.max(0, labels.indexOf("Schema"));
        int byName = Math.max(0, labels.indexOf("Name"));
        out.sort(Comparator.comparing((Object[] r) -> String.valueOf(r[bySchema])).thenComparing(r -> String.valueOf(r[byName])));
        return out;
    }

    /** Size, access method and description Tell does not have: null, as psql shows a blank. */
    private static Object[] row(List<String> labels, String schema, String name, String type, String table) {
        Object[] row = new Object[labels.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = switch (labels.get(i)) {
                case "Schema" -> schema;
                case "Name" -> name;
                case "Type" -> type;
                case "Owner" -> PgCatalogView.OWNER;
                case "Table" -> table;
                case "Persistence" -> "permanent";
                default -> null;
            };
        }
        return row;
    }

    /** \d PATTERN's first step: the tables and indexes whose names match, with their OIDs. */
    private static List<Object[]> lookup(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        Pattern name = regex(q.argument("c.relname" + MATCHES, parameters));
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : inSchema(q, view, parameters)) {
            String schema = PgCatalogView.schema(t.name());
            if (name.matcher(PgCatalogView.relation(t.name())).matches()) {
                out.add(new Object[] {PgCatalogView.oid(t), schema, PgCatalogView.relation(t.name())});
            }
            view.indexes(t).stream().filter(i -> name.matcher(i.name()).matches())
                    .forEach(i -> out.add(new Object[] {i.oid(), schema, i.name()}));
        }
        out.sort(Comparator.comparing(r -> (String) r[2]));
        return out;
    }

    /** A table's or an index's pg_class row as psql reads it. */
    private static List<Object[]> relation(PgCatalogView view, long oid) {
        Optional<TableDef> table = view.tableByOid(oid);
        if (table.isPresent()) {
            TableDef t = table.get();
            // relhastriggers: PostgreSQL's foreign keys are triggers, and psql asks for them only then
            return List.<Object[]>of(new Object[] {(short) 0, "r", !view.indexes(t).isEmpty(), false, hasForeignKeys(view, t),
                false, false, false, false, "", 0, "", "p", "d", "heap"});
        }
        return view.indexByOid(oid).stream().map(i -> new Object[] {(short) 0, "i", false, false, false, false, false, false,
            false, "", 0, "", "p", "n", "btree"}).toList();
    }

    /**
     * The tables of the schemas a psql pattern names ({@code n.nspname ~ '^(public)$'}); without one, those the session
     * sees by their bare names ({@code pg_table_is_visible}), as psql lists them on PostgreSQL.
     */
    private static List<TableDef> inSchema(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        Pattern schema = regex(q.argument("n.nspname" + MATCHES, parameters));
        boolean visibleOnly = q.has("pg_table_is_visible(c.oid)");
        return view.tables().stream().filter(t -> schema.matcher(PgCatalogView.schema(t.name())).matches()
                && (!visibleOnly || view.visible(t))).toList();
    }

    private static Pattern regex(String re) {
        return re == null ? Pattern.compile(".*") : Pattern.compile(".*(?:" + re + ").*", Pattern.CASE_INSENSITIVE);
    }

    private static List<TableDef> described(CatalogQuery q, PgCatalogView view, List<Object> parameters, String before) {
        long oid = q.oidArgument(before, parameters);
        return view.tableByOid(oid).map(List::of).orElse(List.of());
    }

    private static boolean hasForeignKeys(PgCatalogView view, TableDef t) {
        return !t.foreignKeys().isEmpty() || view.tables().stream()
                .anyMatch(o -> o.foreignKeys().stream().anyMatch(fk -> fk.refTable().equals(t.name())));
    }

    /** A column as \d shows it; \d+ adds storage as PostgreSQL's types have it, no compression, target or comment. */
    private static Object[] column(ColumnDef c, boolean verbose) {
        Object[] row = {PgCatalogView.name(c.name()), PgCatalogView.formatType(c.type()),
            PgCatalogView.defaultExpression(c), !c.nullable(), null, "", ""};
        if (!verbose) {
            return row;
        }
        String storage = switch (PgCatalogView.type(c.type())) {
            case NUMERIC -> "m";
            case VARCHAR, BPCHAR, TEXT, BYTEA -> "x";
            default -> "p";
        };
        return new Object[] {row[0], row[1], row[2], row[3], row[4], row[5], row[6], storage, "", null, null};
    }

    private static Object[] index(PgCatalogView.Index i) {
        String constraint = PgCatalogView.constraintDefinition(i);
        return new Object[] {i.name(), i.primary(), i.unique(), false, true, PgCatalogView.indexDefinition(i), constraint,
                constraint == null ? null : i.primary() ? "p" : "u", false, false, false, 0};
    }

    /** As pg_get_constraintdef writes it: the actions other than NO ACTION, ON UPDATE first. */
    static String foreignKey(ForeignKeyDef fk) {
        return "FOREIGN KEY (" + PgCatalogView.columnList(fk.columns()) + ") REFERENCES "
                + PgCatalogView.name(fk.refTable()) + "(" + PgCatalogView.columnList(fk.refColumns()) + ")"
                + action("UPDATE", fk.onUpdate()) + action("DELETE", fk.onDelete());
    }

    private static String action(String event, ForeignKeyDef.Action a) {
        return a == ForeignKeyDef.Action.NO_ACTION ? "" : " ON " + event + " " + a.sql();
    }

    private static List<Object[]> referencedBy(CatalogQuery q, PgCatalogView view, List<Object> parameters) {
        Optional<TableDef> target = view.tableByOid(q.oidArgument("pg_partition_ancestors(", parameters));
        if (target.isEmpty()) {
            return List.of();
        }
        List<Object[]> out = new ArrayList<>();
        for (TableDef t : view.tables()) {
            for (ForeignKeyDef fk : t.foreignKeys()) {
                if (fk.refTable().equals(target.get().name())) {
                    out.add(new Object[] {PgCatalogView.relation(fk.name()), PgCatalogView.relation(t.name()), foreignKey(fk)});
                }
            }
        }
        out.sort(Comparator.comparing(r -> (String) r[0]));
        return out;
    }
}
