package io.tell.server.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A query on PostgreSQL's catalogs that a known client sends (psql 15's {@code \d} family, the
 * JDBC driver's {@code DatabaseMetaData}), recognised by its shape: fragments that every version
 * of the query carries, in its text lower-cased with white space collapsed. The server answers
 * it from Tell's catalog ({@link CatalogAnswers}) instead of running it, as Tell's SQL has no
 * {@code pg_catalog}. Any other query naming {@code pg_catalog} or a {@code pg_class}-like
 * relation is refused with 0A000 naming it; {@code information_schema} is Tell's own and runs.
 */
record CatalogQuery(Shape shape, String sql, String text, int parameterCount) {
    /** What every catalog query has somewhere; a cheap test before the query is normalised. */
    private static final Pattern CANDIDATE = Pattern.compile("pg_|current_(database|catalog|schema)",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern CATALOG = Pattern.compile(
            "pg_catalog\\.|\\bpg_(class|namespace|attribute|type|index|constraint|settings|database|roles)\\b");
    private static final Pattern CURRENT_DATABASE = Pattern.compile(
            "select (pg_catalog\\.)?(current_database\\(\\)|current_catalog)( as \"?\\w+\"?)?;?");
    private static final Pattern CURRENT_SCHEMA = Pattern.compile(
            "select (pg_catalog\\.)?current_schema(\\(\\))?( as \"?\\w+\"?)?;?");

    enum Shape {
        // psql 15: \d, \dt, \di (one query, relkinds listed), \d TABLE (a lookup, then one query per part), \dn
        PSQL_PUBLICATIONS("from pg_catalog.pg_publication"),
        PSQL_POLICIES("from pg_catalog.pg_policy"),
        PSQL_STATISTICS("from pg_catalog.pg_statistic_ext"),
        PSQL_TRIGGERS("from pg_catalog.pg_trigger"),
        PSQL_PARENTS("pg_catalog.pg_inherits i", "c.oid = i.inhparent"),
        PSQL_PARTITIONS("pg_catalog.pg_inherits i", "c.oid = i.inhrelid"),
        PSQL_RELATIONS("from pg_catalog.pg_class c", "pg_get_userbyid(c.relowner)", "c.relkind in ("),
        PSQL_LOOKUP("select c.oid, n.nspname, c.relname from pg_catalog.pg_class c"),
        PSQL_TABLE("select c.relchecks, c.relkind"),
        PSQL_INDEX_COLUMNS("from pg_catalog.pg_attribute a", "as is_key"),
        PSQL_COLUMNS("from pg_catalog.pg_attribute a", "format_type(a.atttypid, a.atttypmod)"),
        PSQL_INDEX("select i.indisunique, i.indisprimary"),
        PSQL_INDEXES("pg_catalog.pg_class c2", "pg_catalog.pg_index i", "pg_get_indexdef(i.indexrelid"),
        PSQL_FOREIGN_KEYS("from pg_catalog.pg_constraint r", "contype = 'f'", "conrelid ="),
        PSQL_REFERENCED_BY("from pg_catalog.pg_constraint c", "confrelid in"),
        PSQL_SCHEMAS("from pg_catalog.pg_namespace n", "pg_get_userbyid(n.nspowner)"),
        PSQL_DATABASES("from pg_catalog.pg_database d", "pg_get_userbyid(d.datdba)"),
        // the PostgreSQL JDBC driver's PgDatabaseMetaData
        JDBC_TABLES("as \"table_type\"", "pg_catalog.pg_class c"),
        JDBC_COLUMNS("pg_catalog.pg_attribute a", "a.atttypmod", "t.typtypmod"),
        JDBC_PRIMARY_KEYS("as \"pk_name\"", "contype = 'p'"),
        JDBC_INDEX_INFO("as \"index_qualifier\""),
        JDBC_KEYS("as \"pktable_cat\""),
        JDBC_INDEX_KEYS_SETTING("from pg_catalog.pg_settings", "max_index_keys"),
        JDBC_SCHEMAS("as \"table_schem\"", "from pg_catalog.pg_namespace"),
        JDBC_CATALOGS("from pg_catalog.pg_database"),
        JDBC_FIELDS("vals on (c.oid = vals.oid and a.attnum = vals.attnum)"),
        JDBC_TYPES("select t.typname,t.oid from pg_catalog.pg_type t"),
        JDBC_TYPE_KINDS("as is_array", "from pg_catalog.pg_type"),
        CURRENT_DATABASE(),
        CURRENT_SCHEMA();

        private final List<String> fragments;

        Shape(String... fragments) {
            this.fragments = Arrays.asList(fragments);
        }
    }

    /** The catalog query {@code sql} is, null for one that does not touch the catalogs; 0A000 for an unknown one. */
    static CatalogQuery recognize(String sql) {
        if (!CANDIDATE.matcher(sql).find()) {
            return null;
        }
        String text = normalize(sql);
        if (CURRENT_DATABASE.matcher(text).matches()) {
            return new CatalogQuery(Shape.CURRENT_DATABASE, sql, text, 0);
        }
        if (CURRENT_SCHEMA.matcher(text).matches()) {
            return new CatalogQuery(Shape.CURRENT_SCHEMA, sql, text, 0);
        }
        if (!CATALOG.matcher(normalize(code(sql))).find()) {
            return null;
        }
        int parameters = SqlScanner.placeholders(sql).maxIndex();
        for (Shape shape : Shape.values()) {
            if (!shape.fragments.isEmpty() && shape.fragments.stream().allMatch(text::contains)) {
                return new CatalogQuery(shape, sql, text, parameters);
            }
        }
        String shown = text.length() > 120 ? text.substring(0, 120) + "…" : text;
        throw new PgError("0A000", "catalog query not supported by Tell's PN server: " + shown);
    }

    /** {@code sql} without its string literals and comments, so that a value mentioning pg_class is no catalog query. */
    private static String code(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        for (int i = 0; i < sql.length(); ) {
            int end = SqlScanner.skip(sql, i);
            char c = sql.charAt(i);
            out.append(c == '\'' || sql.startsWith("--", i) || sql.startsWith("/*", i) ? " " : sql.substring(i, end));
            i = end;
        }
        return out.toString();
    }

    static String normalize(String sql) {
        return sql.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
    }

    boolean has(String fragment) {
        return text.contains(fragment);
    }

    /**
     * The value compared after {@code before} (e.g. {@code "c.relname like "}): a {@code $n}
     * parameter's, or a quoted literal (maybe in parentheses and cast); null when the query has no
     * such comparison.
     */
    String argument(String before, List<Object> parameters) {
        int at = text.indexOf(before);
        if (at < 0) {
            return null;
        }
        String rest = text.substring(at + before.length()).stripLeading();
        Matcher m = Pattern.compile("^\\$(\\d+)").matcher(rest);
        if (m.find()) {
            Object v = parameters.get(Integer.parseInt(m.group(1)) - 1);
            return v == null ? null : v.toString();
        }
        m = Pattern.compile("^\\(?\\s*e?'((?:[^']|'')*)'").matcher(rest); // the driver's simple mode: ('emp'::varchar)
        if (m.find()) {
            return m.group(1).replace("''", "'").replace("\\\\", "\\");
        }
        m = Pattern.compile("^(\\d+)").matcher(rest);
        return m.find() ? m.group(1) : null;
    }

    /** An OID compared after {@code before}, -1 when there is none. */
    long oidArgument(String before, List<Object> parameters) {
        String v = argument(before, parameters);
        return v == null || !v.matches("\\d+") ? -1 : Long.parseLong(v);
    }

    /** The column labels the query gives with {@code AS "Label"}, in order and as written. */
    List<String> labels() {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("(?i)\\bas\\s+\"([^\"]+)\"").matcher(sql);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The quoted values of an {@code IN ('a','b')} list after {@code before}. */
    List<String> inList(String before) {
        int at = text.indexOf(before);
        List<String> out = new ArrayList<>();
        if (at >= 0) {
            String list = text.substring(at + before.length(), text.indexOf(')', at));
            Matcher m = Pattern.compile("'([^']*)'").matcher(list);
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** A LIKE pattern ({@code %}, {@code _}, backslash escapes) as a case-insensitive regular expression; null matches all. */
    static Pattern like(String pattern) {
        return pattern == null ? Pattern.compile(".*", Pattern.DOTALL) : io.tell.sql.jdbc.NamePattern.regex(pattern, true);
    }
}
