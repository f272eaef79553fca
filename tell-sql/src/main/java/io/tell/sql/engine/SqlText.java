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

    private static final Pattern EXPLAIN = Pattern.compile("(?is)^\\s*EXPLAIN\\s+PLAN\\s+FOR\\s+(.*)$");

    /** The statement after {@code EXPLAIN PLAN FOR}, or null when {@code sql} is no such EXPLAIN. */
    static String explained(String sql) {
        Matcher m = EXPLAIN.matcher(sql);
        return m.matches() ? m.group(1) : null;
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

    /**
     * Where {@code word} (a whole word, any case) first stands from {@code from} on, outside parentheses, CASE … END,
     * quotes and comments; -1 if nowhere.
     */
    static int topLevel(String sql, int from, String word) {
        int[] depth = {0};
        return firstInCode(sql, i -> {
            char c = sql.charAt(i);
            if (c == '(' || wordAt(sql, i, "CASE")) {
                depth[0]++;
                return false;
            }
            if (c == ')' || wordAt(sql, i, "END")) {
                depth[0]--;
                return false;
            }
            return i >= from && depth[0] == 0 && wordAt(sql, i, word);
        });
    }

    /** How many {@code ?} parameters {@code sql} has outside quotes and comments. */
    static int placeholders(String sql) {
        int[] count = {0};
        firstInCode(sql, i -> {
            if (sql.charAt(i) == '?') {
                count[0]++;
            }
            return false;
        });
        return count[0];
    }

    /** The first index outside quotes and comments, in order, for which {@code test} holds; -1 for none. */
    private static int firstInCode(String sql, java.util.function.IntPredicate test) {
        for (int i = 0; i < sql.length(); i++) {
            int skipped = skipped(sql, i);
            if (skipped >= 0) {
                i = skipped;
            } else if (test.test(i)) {
                return i;
            }
        }
        return -1;
    }

    /** Where the quoted name, string or comment that starts at {@code i} ends (its last character); -1 if none starts there. */
    private static int skipped(String sql, int i) {
        int n = sql.length();
        char c = sql.charAt(i);
        if (c == '\'' || c == '"') {
            int e = sql.indexOf(c, i + 1);
            while (e >= 0 && e + 1 < n && sql.charAt(e + 1) == c) {
                e = sql.indexOf(c, e + 2);
            }
            return e < 0 ? n : e;
        }
        if (sql.startsWith("--", i)) {
            int e = sql.indexOf('\n', i);
            return e < 0 ? n : e;
        }
        if (sql.startsWith("/*", i)) {
            int e = sql.indexOf("*/", i + 2);
            return e < 0 ? n : e + 1;
        }
        return -1;
    }

    private static boolean wordAt(String sql, int i, String word) {
        return sql.regionMatches(true, i, word, 0, word.length()) && boundary(sql, i - 1)
                && boundary(sql, i + word.length());
    }

    static int skipBlanks(String sql, int i) {
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
