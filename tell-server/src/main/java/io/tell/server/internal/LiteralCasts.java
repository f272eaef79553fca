package io.tell.server.internal;

import io.tell.sql.exec.Values;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's cast of a quoted literal, {@code '2024-05-06'::date}, which clients that inline
 * parameters write (psycopg2 sends dates, timestamps and special floats so), made into Tell's
 * {@code CAST('2024-05-06' AS DATE)}. Only literals of the types below are rewritten, and a
 * date or timestamp literal loses its ISO {@code T} and any time zone (the JDBC driver's simple
 * mode sends {@code '2024-02-29 +00'}), as {@code timestamp without time zone} does in
 * PostgreSQL; other {@code ::} casts are left to fail in Tell's parser.
 */
final class LiteralCasts {
    private static final Pattern TYPE = Pattern.compile("(?:pg_catalog\\.)?([a-z][a-z0-9_]*"
            + "(?:\\s+with(?:out)?\\s+time\\s+zone|\\s+precision|\\s+varying)?)(\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\))?",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern ISO_T = Pattern.compile("(\\d)T(\\d)");
    /** PostgreSQL's names of timestamptz, whose literal's instant is written at UTC, the session's time zone. */
    private static final java.util.Set<String> ZONED = java.util.Set.of("timestamptz", "timestamp with time zone");
    /** PostgreSQL's names to Tell's; "" keeps the literal as it is (a string already). */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("date", "DATE"), Map.entry("time", "TIME(6)"), Map.entry("timestamp", "TIMESTAMP(6)"),
            Map.entry("timestamptz", "TIMESTAMP(6)"), Map.entry("timestamp with time zone", "TIMESTAMP(6)"),
            Map.entry("timestamp without time zone", "TIMESTAMP(6)"), Map.entry("double precision", "DOUBLE"),
            Map.entry("character varying", ""), Map.entry("float", "DOUBLE"), Map.entry("float8", "DOUBLE"),
            Map.entry("float4", "REAL"), Map.entry("real", "REAL"), Map.entry("int2", "SMALLINT"),
            Map.entry("smallint", "SMALLINT"), Map.entry("int", "INTEGER"), Map.entry("int4", "INTEGER"),
            Map.entry("integer", "INTEGER"), Map.entry("int8", "BIGINT"), Map.entry("bigint", "BIGINT"),
            Map.entry("numeric", "DECIMAL"), Map.entry("decimal", "DECIMAL"), Map.entry("bool", "BOOLEAN"),
            Map.entry("boolean", "BOOLEAN"), Map.entry("text", ""), Map.entry("varchar", ""), Map.entry("bpchar", ""),
            Map.entry("unknown", ""), Map.entry("uuid", "UUID"), Map.entry("bytea", "VARBINARY"),
            Map.entry("time without time zone", "TIME(6)"));

    private LiteralCasts() {
    }

    static String rewrite(String sql) {
        if (!sql.contains("::")) {
            return sql;
        }
        StringBuilder out = new StringBuilder(sql.length() + 16);
        for (int i = 0; i < sql.length(); ) {
            int end = SqlScanner.skip(sql, i);
            if (sql.charAt(i) == '\'' && sql.startsWith("::", end)) {
                Matcher m = TYPE.matcher(sql).region(end + 2, sql.length());
                String name = m.lookingAt() ? m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " ") : null;
                String type = name == null ? null : TYPES.get(name);
                if (type != null) {
                    cast(out, sql.substring(i, end), type, m.group(2), ZONED.contains(name));
                    i = m.end();
                    continue;
                }
            }
            out.append(sql, i, end);
            i = end;
        }
        return out.toString();
    }

    private static void cast(StringBuilder out, String literal, String type, String modifier, boolean zoned) {
        if (type.isEmpty()) {
            out.append(literal);
            return;
        }
        if (type.equals("VARBINARY")) { // PostgreSQL's bytea input, as a binary literal
            byte[] bytes = Values.parseBytes(literal.substring(1, literal.length() - 1).replace("''", "'"));
            out.append("X'").append(HexFormat.of().formatHex(bytes)).append('\'');
            return;
        }
        if (type.startsWith("TIME") || type.equals("DATE")) {
            String text = ISO_T.matcher(literal.substring(1, literal.length() - 1)).replaceFirst("$1 $2");
            literal = "'" + (zoned ? TextValues.format(((java.time.OffsetDateTime) TextValues.parse(text, PgType.TIMESTAMPTZ))
                    .toLocalDateTime()) : TextValues.parse(text, PgType.TIMESTAMP)) + "'";
        }
        out.append("CAST(").append(literal).append(" AS ").append(type).append(modifier == null ? "" : modifier).append(')');
    }
}
