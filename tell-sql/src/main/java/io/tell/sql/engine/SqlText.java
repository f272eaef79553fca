package io.tell.sql.engine;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Lexical handling of statement text before Calcite parses it. */
final class SqlText {
    private static final Pattern FOR_UPDATE = Pattern.compile("(?is)^(.*\\S)\\s+FOR\\s+UPDATE\\s*$");
    private static final Pattern TRAILING_SEMICOLONS = Pattern.compile("(?s)[\\s;]+$");

    private SqlText() {
    }

    /** The text without trailing semicolons and white space. */
    static String trim(String sql) {
        return TRAILING_SEMICOLONS.matcher(sql).replaceFirst("");
    }

    /** The query before a trailing {@code FOR UPDATE}, or null when there is none. */
    static String withoutForUpdate(String sql) {
        Matcher m = FOR_UPDATE.matcher(sql);
        return m.matches() ? m.group(1) : null;
    }

    /** A data modification's text split at its RETURNING clause. */
    record Returning(String statement, String list) {
    }

    /**
     * {@code sql} (an INSERT, UPDATE or DELETE) split before a RETURNING keyword outside
     * parentheses, quotes and comments; null when it has none.
     */
    static Returning withoutReturning(String sql) {
        String verb = firstWord(sql);
        if (!verb.equals("INSERT") && !verb.equals("UPDATE") && !verb.equals("DELETE")) {
            return null;
        }
        int at = topLevel(sql, "RETURNING");
        return at < 0 ? null : new Returning(sql.substring(0, at).stripTrailing(), sql.substring(at + 9).strip());
    }

    /** An INSERT's text split at its ON CONFLICT clause (the clause without the words ON CONFLICT). */
    record OnConflict(String statement, String clause) {
    }

    /** {@code sql} (an INSERT) split before {@code ON CONFLICT} outside parentheses, quotes and comments; null when none. */
    static OnConflict withoutOnConflict(String sql) {
        if (!firstWord(sql).equals("INSERT")) {
            return null;
        }
        int on = 0;
        while ((on = topLevel(sql, on, "ON")) >= 0) {
            int after = skipBlanks(sql, on + 2);
            if (after > on + 2 && sql.regionMatches(true, after, "CONFLICT", 0, 8) && boundary(sql, after + 8)) {
                return new OnConflict(sql.substring(0, on).stripTrailing(), sql.substring(after + 8).strip());
            }
            on += 2;
        }
        return null;
    }

    private static int topLevel(String sql, String word) {
        return topLevel(sql, 0, word);
    }

    /** Where {@code word} (a whole word, any case) first stands from {@code from} on, outside parentheses, quotes and comments; -1 if nowhere. */
    private static int topLevel(String sql, int from, String word) {
        int depth = 0;
        int n = sql.length();
        for (int i = 0; i < n; i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"') {
                int e = sql.indexOf(c, i + 1);
                while (e >= 0 && e + 1 < n && sql.charAt(e + 1) == c) {
                    e = sql.indexOf(c, e + 2);
                }
                i = e < 0 ? n : e;
            } else if (sql.startsWith("--", i)) {
                int e = sql.indexOf('\n', i);
                i = e < 0 ? n : e;
            } else if (sql.startsWith("/*", i)) {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (i >= from && depth == 0 && sql.regionMatches(true, i, word, 0, word.length())
                    && boundary(sql, i - 1) && boundary(sql, i + word.length())) {
                return i;
            }
        }
        return -1;
    }

    private static int skipBlanks(String sql, int i) {
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return i;
    }

    private static boolean boundary(String sql, int i) {
        return i < 0 || i >= sql.length() || !(Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_');
    }

    /** The first keyword, upper case ("" when none), skipping white space and comments. */
    static String firstWord(String sql) {
        int i = 0;
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c) || c == '(') {
                i++;
            } else if (sql.startsWith("--", i)) {
                int e = sql.indexOf('\n', i);
                i = e < 0 ? n : e + 1;
            } else if (sql.startsWith("/*", i)) {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else {
                break;
            }
        }
        int start = i;
        while (i < n && Character.isLetter(sql.charAt(i))) {
            i++;
        }
        return sql.substring(start, i).toUpperCase(Locale.ROOT);
    }
}
