package io.tell.sql;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's cast syntax {@code operand::type}, which Calcite's grammar lacks, written as the
 * standard's {@code CAST(operand AS type)} before a statement is parsed. The operand is what
 * stands right before {@code ::}: a name ({@code t.c}), a literal, a parameter, a parenthesized
 * expression or a function call, or an earlier cast ({@code x::text::int}); {@code -1::int} casts
 * {@code 1}, as in PostgreSQL. The type is PostgreSQL's name ({@code int4}, {@code text},
 * {@code double precision}, {@code timestamp with time zone}, …, with a length or precision and
 * scale), written as Tell's. Quotes and comments are left alone; text without {@code ::} is
 * returned as it is.
 */
public final class CastSyntax {
    private static final Pattern TYPE = Pattern.compile("\\s*(?:pg_catalog\\.)?([a-z][a-z0-9_]*"
            + "(?:\\s+with(?:out)?\\s+time\\s+zone|\\s+precision|\\s+varying)?)(\\s*\\(\\s*\\d+\\s*(?:,\\s*\\d+\\s*)?\\))?",
            Pattern.CASE_INSENSITIVE);
    /** PostgreSQL's names that Tell spells otherwise (Tell's own names pass as they are). */
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("int2", "SMALLINT"), Map.entry("int", "INTEGER"), Map.entry("int4", "INTEGER"),
            Map.entry("int8", "BIGINT"), Map.entry("float4", "REAL"), Map.entry("float8", "DOUBLE"),
            Map.entry("float", "DOUBLE"), Map.entry("double precision", "DOUBLE"), Map.entry("numeric", "DECIMAL"),
            Map.entry("bool", "BOOLEAN"), Map.entry("text", "TEXT"), Map.entry("bpchar", "CHAR"),
            Map.entry("character varying", "VARCHAR"), Map.entry("timestamptz", "TIMESTAMP WITH LOCAL TIME ZONE"),
            Map.entry("timestamp with time zone", "TIMESTAMP WITH LOCAL TIME ZONE"),
            Map.entry("timestamp without time zone", "TIMESTAMP"), Map.entry("time without time zone", "TIME"),
            Map.entry("bytea", "BYTEA"));
    /** Words that are no operand, and before {@code (…)} make it a parenthesized expression, not a call. */
    private static final Set<String> KEYWORDS = Set.of("SELECT", "WHERE", "AND", "OR", "NOT", "IN", "ON", "BY", "FROM",
            "VALUES", "SET", "WHEN", "THEN", "ELSE", "CASE", "AS", "IS", "EXISTS", "ANY", "ALL", "SOME", "LIKE", "HAVING",
            "JOIN", "USING", "RETURNING", "BETWEEN", "INTO", "DISTINCT", "OVER", "FILTER", "ROW");

    private CastSyntax() {
    }

    /** {@code sql} with every {@code operand::type} outside quotes and comments written as CAST. */
    public static String rewrite(String sql) {
        if (!sql.contains("::")) {
            return sql;
        }
        List<String> tokens = tokens(sql);
        if (!tokens.contains("::")) {
            return sql;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (!t.equals("::")) {
                out.add(t);
                continue;
            }
            String rest = String.join("", tokens.subList(i + 1, tokens.size()));
            Matcher type = TYPE.matcher(rest);
            int start = operandStart(out);
            if (!type.lookingAt() || start < 0) {
                out.add(t); // left for the parser to report
                continue;
            }
            String operand = String.join("", out.subList(start, out.size())).strip();
            out.subList(start, out.size()).clear();
            out.add("CAST(" + operand + " AS " + tellType(type.group(1)) + (type.group(2) == null ? "" : type.group(2)) + ")");
            i = skipChars(tokens, i + 1, type.end());
        }
        return String.join("", out);
    }

    private static String tellType(String name) {
        String key = name.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return NAMES.getOrDefault(key, key.toUpperCase(Locale.ROOT));
    }

    /** Where the operand ending at the last of {@code out} (white space aside) begins; -1 when there is none. */
    private static int operandStart(List<String> out) {
        int i = out.size() - 1;
        while (i >= 0 && out.get(i).isBlank()) {
            i--;
        }
        if (i < 0) {
            return -1;
        }
        if (out.get(i).equals(")")) {
            int depth = 0;
            for (; i >= 0; i--) {
                depth += out.get(i).equals(")") ? 1 : out.get(i).equals("(") ? -1 : 0;
                if (depth == 0) {
                    break;
                }
            }
            if (i < 0) {
                return -1;
            }
            int name = i - 1;
            while (name >= 0 && out.get(name).isBlank()) {
                name--;
            }
            return name >= 0 && isName(out.get(name)) && !KEYWORDS.contains(out.get(name).toUpperCase(Locale.ROOT))
                    ? chainStart(out, name) : i;
        }
        String last = out.get(i);
        if (last.startsWith("'")) {
            return i > 0 && out.get(i - 1).matches("(?i)[xen]") ? i - 1 : i; // X'01', E'…', N'…'
        }
        if (last.startsWith("CAST(") || last.equals("?") || Character.isDigit(last.charAt(0))) {
            return i;
        }
        return isName(last) && !KEYWORDS.contains(last.toUpperCase(Locale.ROOT)) ? chainStart(out, i) : -1;
    }

    /** The first name of a dotted chain ({@code s.t.c}) ending at {@code i}. */
    private static int chainStart(List<String> out, int i) {
        while (i >= 2 && out.get(i - 1).equals(".") && isName(out.get(i - 2))) {
            i -= 2;
        }
        return i;
    }

    private static boolean isName(String token) {
        return token.startsWith("\"") || Character.isLetter(token.charAt(0)) || token.charAt(0) == '_';
    }

    /** The index of the last token of {@code tokens} from {@code from} on that the first {@code chars} characters cover. */
    private static int skipChars(List<String> tokens, int from, int chars) {
        int i = from;
        int seen = 0;
        while (i < tokens.size() && seen + tokens.get(i).length() <= chars) {
            seen += tokens.get(i).length();
            i++;
        }
        return i - 1;
    }

    /**
     * {@code sql} cut into tokens that join back into it: quoted names and strings, comments, runs of white
     * space, words (letters, digits, {@code _}, {@code $}), numbers, {@code ::}, and single other characters.
     */
    private static List<String> tokens(String sql) {
        List<String> out = new ArrayList<>();
        int n = sql.length();
        for (int i = 0; i < n; ) {
            char c = sql.charAt(i);
            int end;
            if (c == '\'' || c == '"') {
                end = sql.indexOf(c, i + 1);
                while (end >= 0 && end + 1 < n && sql.charAt(end + 1) == c) {
                    end = sql.indexOf(c, end + 2);
                }
                end = end < 0 ? n : end + 1;
            } else if (sql.startsWith("--", i)) {
                end = sql.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (sql.startsWith("/*", i)) {
                end = sql.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (sql.startsWith("::", i)) {
                end = i + 2;
            } else if (Character.isWhitespace(c)) {
                end = i;
                while (end < n && Character.isWhitespace(sql.charAt(end))) {
                    end++;
                }
            } else if (Character.isLetterOrDigit(c) || c == '_' || c == '$') {
                end = i;
                while (end < n && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                        || sql.charAt(end) == '$' || sql.charAt(end) == '.' && Character.isDigit(c))) {
                    end++;
                }
            } else {
                end = i + 1;
            }
            out.add(sql.substring(i, end));
            i = end;
        }
        return out;
    }
}
