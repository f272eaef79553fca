package io.tell.sql.jdbc;

import java.util.regex.Pattern;

/**
 * A {@link java.sql.DatabaseMetaData} search pattern: {@code %} matches any characters,
 * {@code _} one, {@code \} makes the next character literal; null matches every name.
 * Matching is exact otherwise: the catalog stores names as written (unquoted ones upper-cased).
 * Public for the PN server, whose clients send the same patterns in catalog queries.
 */
public final class NamePattern {
    static final String ESCAPE = "\\";
    private static final NamePattern ANY = new NamePattern(null);

    private final Pattern regex;

    private NamePattern(Pattern regex) {
        this.regex = regex;
    }

    static NamePattern of(String pattern) {
        return pattern == null ? ANY : new NamePattern(regex(pattern, false));
    }

    /** {@code pattern} (not null) as a regular expression, matching case-insensitively when {@code ignoreCase}. */
    public static Pattern regex(String pattern, boolean ignoreCase) {
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                re.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL | (ignoreCase ? Pattern.CASE_INSENSITIVE : 0));
    }

    boolean matches(String name) {
        return regex == null || regex.matcher(name).matches();
    }
}
