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
