package io.tell.server.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the server needs to know of SQL text before Tell parses it: where statements end in a
 * simple Query (a {@code ;} outside quotes, comments and dollar quotes), PostgreSQL's
 * {@code $n} placeholders turned into Tell's {@code ?}, and the leading keywords.
 */
final class SqlScanner {
    /** A statement with {@code $n} replaced by {@code ?}; {@code order[i]} is the n (1-based) of the i-th {@code ?}. */
    record Placeholders(String sql, int[] order) {
        int maxIndex() {
            int max = 0;
            for (int n : order) {
                max = Math.max(max, n);
            }
            return max;
        }
    }

    private SqlScanner() {
    }

    /** The statements of a Query message, without blank ones. */
    static List<String> split(String sql) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < sql.length(); ) {
            char c = sql.charAt(i);
            if (c == ';') {
                add(out, sql.substring(start, i));
                start = ++i;
            } else {
                i = skip(sql, i);
            }
        }
        add(out, sql.substring(start));
        return out;
    }

    private static void add(List<String> out, String statement) {
        if (!isBlank(statement)) {
            out.add(statement.strip());
        }
    }

    /** True when {@code sql} holds nothing but white space and comments. */
    static boolean isBlank(String sql) {
        for (int i = 0; i < sql.length(); ) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (startsComment(sql, i)) {
                i = skip(sql, i);
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean startsComment(String sql, int i) {
        return sql.startsWith("--", i) || sql.startsWith("/*", i);
    }

    /** The index after the token starting at {@code i}: a whole quoted string, comment or dollar quote, else one char. */
    static int skip(String sql, int i) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"') {
            int j = i + 1;
            while (j < sql.length()) {
                if (sql.charAt(j) == c) {
                    if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
                        j += 2; // a doubled quote stays inside
                        continue;
                    }
                    return j + 1;
                }
                j++;
            }
            return sql.length();
        }
        if (sql.startsWith("--", i)) {
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() : end + 1;
        }
        if (sql.startsWith("/*", i)) {
            int depth = 0;
            int j = i;
            while (j < sql.length()) {
                if (sql.startsWith("/*", j)) {
                    depth++;
                    j += 2;
                } else if (sql.startsWith("*/", j)) {
                    j += 2;
                    if (--depth == 0) {
                        return j;
                    }
                } else {
                    j++;
                }
            }
            return sql.length();
        }
        if (c == '$' && !(i > 0 && isIdentifierPart(sql.charAt(i - 1)))) {
            int tagEnd = i + 1;
            while (tagEnd < sql.length() && isIdentifierPart(sql.charAt(tagEnd)) && !Character.isDigit(sql.charAt(i + 1))) {
                tagEnd++;
            }
            if (tagEnd < sql.length() && sql.charAt(tagEnd) == '$') {
                String tag = sql.substring(i, tagEnd + 1);
                int close = sql.indexOf(tag, tagEnd + 1);
                return close < 0 ? sql.length() : close + tag.length();
            }
        }
        return i + 1;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_';
    }

    /** {@code sql} with each {@code $n} outside quotes and comments replaced by {@code ?}. */
    static Placeholders placeholders(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < sql.length(); ) {
            char c = sql.charAt(i);
            int j = i + 1;
            if (c == '$' && j < sql.length() && Character.isDigit(sql.charAt(j)) && !(i > 0 && isIdentifierPart(sql.charAt(i - 1)))) {
                while (j < sql.length() && Character.isDigit(sql.charAt(j))) {
                    j++;
                }
                int n;
                try {
                    n = Integer.parseInt(sql, i + 1, j, 10);
                } catch (NumberFormatException e) {
                    n = -1;
                }
                if (n < 1 || n > 65_535) {
                    throw TellException.of(ErrorCode.SQL_SYNTAX, "there is no parameter " + sql.substring(i, j));
                }
                order.add(n);
                out.append('?');
                i = j;
            } else if (c == '?') {
                // Tell would take a bare ? as a parameter, which PostgreSQL's SQL has no such thing as.
                throw TellException.of(ErrorCode.SQL_SYNTAX, "'?' outside a string: PostgreSQL clients write parameters as $1, $2, …");
            } else {
                int end = skip(sql, i);
                out.append(sql, i, end);
                i = end;
            }
        }
        return new Placeholders(out.toString(), order.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The first {@code n} words of {@code sql} (letters, digits, underscores), upper case, comments skipped. */
    static List<String> leadingWords(String sql, int n) {
        List<String> words = new ArrayList<>();
        int i = 0;
        while (i < sql.length() && words.size() < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (startsComment(sql, i)) {
                i = skip(sql, i);
            } else if (isIdentifierPart(c)) {
                int j = i;
                while (j < sql.length() && isIdentifierPart(sql.charAt(j))) {
                    j++;
                }
                words.add(sql.substring(i, j).toUpperCase(Locale.ROOT));
                i = j;
            } else {
                break;
            }
        }
        return words;
    }
}
