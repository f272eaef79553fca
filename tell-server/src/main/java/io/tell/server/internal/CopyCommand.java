package io.tell.server.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The COPY forms this server supports, in text or CSV format, with {@code [[WITH] (options) |
 * legacy options]}: {@code COPY table [(columns)] FROM STDIN} (a bulk load), {@code COPY table
 * [(columns)] TO STDOUT} and {@code COPY (query) TO STDOUT} (an export; {@code toStdout}).
 * {@code table} and {@code columns} are kept as written (quoted or not), to go into an INSERT or
 * SELECT unchanged; {@code columns} is empty for all; {@code query} is null unless given.
 */
record CopyCommand(String table, List<String> columns, String query, boolean toStdout, boolean csv, boolean header,
                   char delimiter, String nullString, char quote, char escape) {
    private static final String TABLE = "(\"(?:[^\"]|\"\")+\"|[\\w.]+)\\s*(?:\\(([^)]*)\\))?";
    private static final Pattern FROM_STDIN = Pattern.compile("\\s*COPY\\s+" + TABLE + "\\s*FROM\\s+STDIN\\b(.*)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern TABLE_TO_STDOUT = Pattern.compile("\\s*COPY\\s+" + TABLE + "\\s*TO\\s+STDOUT\\b(.*)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern QUERY_TO_STDOUT = Pattern.compile("\\s*COPY\\s*\\((.*)\\)\\s*TO\\s+STDOUT\\b(.*)",
            Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    private static final Pattern OPTION = Pattern.compile("\\s*(\\w+)(?:\\s+(?:AS\\s+)?('(?:[^']|'')*'|\\w+))?\\s*",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern TOKEN = Pattern.compile("'(?:[^']|'')*'|[^\\s']+");

    /** The command {@code sql} is; null when it does not start with COPY; 0A000 for a COPY form not supported. */
    static CopyCommand parse(String sql) {
        List<String> first = SqlScanner.leadingWords(sql, 1);
        if (first.isEmpty() || !first.get(0).equals("COPY")) {
            return null;
        }
        String statement = sql.strip();
        Matcher m;
        String table = null;
        String query = null;
        String columnList = null;
        String options;
        boolean toStdout = true;
        if ((m = FROM_STDIN.matcher(statement)).matches() || (m = TABLE_TO_STDOUT.matcher(statement)).matches()) {
            toStdout = m.pattern() == TABLE_TO_STDOUT;
            table = m.group(1);
            columnList = m.group(2);
            options = m.group(3);
        } else if ((m = QUERY_TO_STDOUT.matcher(statement)).matches()) {
            query = m.group(1).strip();
            options = m.group(2);
        } else {
            throw new PgError("0A000", "only COPY table [(columns)] FROM STDIN, COPY table [(columns)] TO STDOUT"
                    + " and COPY (query) TO STDOUT are supported");
        }
        List<String> columns = new ArrayList<>();
        if (columnList != null) {
            for (String c : columnList.split(",")) {
                columns.add(c.strip());
            }
        }
        options = options.strip();
        if (options.endsWith(";")) {
            options = options.substring(0, options.length() - 1).strip();
        }
        if (options.regionMatches(true, 0, "WITH", 0, 4)) {
            options = options.substring(4).strip();
        }
        boolean listed = options.startsWith("(") && options.endsWith(")");
        if (listed) {
            options = options.substring(1, options.length() - 1);
        }
        Builder b = new Builder();
        for (String option : listed ? splitList(options) : splitLegacy(options)) {
            Matcher o = OPTION.matcher(option);
            if (!o.matches()) {
                throw new PgError("42601", "cannot read COPY option \"" + option.strip() + "\"");
            }
            b.option(o.group(1).toLowerCase(Locale.ROOT), o.group(2) == null ? null : unquote(o.group(2)));
        }
        return new CopyCommand(table, columns, query, toStdout, b.csv, b.header, b.delimiter(), b.nullString(),
                b.quote, b.escape == 0 ? b.quote : b.escape);
    }

    /** The parenthesised form's options: separated by commas outside quotes. */
    private static List<String> splitList(String options) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < options.length(); i++) {
            char c = options.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(options.substring(start, i));
                start = i + 1;
            }
        }
        out.add(options.substring(start));
        return out;
    }

    /** The legacy form's options: keywords one after another; DELIMITER, NULL, QUOTE, ESCAPE, ENCODING take a value. */
    private static List<String> splitLegacy(String options) {
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(options);
        while (m.find()) {
            tokens.add(m.group());
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            String option = tokens.get(i);
            if (List.of("delimiter", "null", "quote", "escape", "encoding").contains(option.toLowerCase(Locale.ROOT))) {
                if (i + 1 < tokens.size() && tokens.get(i + 1).equalsIgnoreCase("as")) {
                    i++;
                }
                if (++i < tokens.size()) {
                    option += " " + tokens.get(i);
                }
            }
            out.add(option);
        }
        return out;
    }

    private static String unquote(String v) {
        return v.startsWith("'") ? v.substring(1, v.length() - 1).replace("''", "'") : v;
    }

    private static final class Builder {
        boolean csv;
        boolean header;
        Character delimiter;
        String nullString;
        char quote = '"';
        char escape;

        void option(String name, String value) {
            switch (name) {
                case "format" -> {
                    String f = value == null ? "" : value.toLowerCase(Locale.ROOT);
                    if (!f.equals("csv") && !f.equals("text")) {
                        throw new PgError("0A000", "COPY format " + value + " is not supported: text or csv");
                    }
                    csv = f.equals("csv");
                }
                case "csv" -> csv = true;
                case "text" -> csv = false;
                case "binary" -> throw new PgError("0A000", "COPY BINARY is not supported: text or csv");
                case "header" -> header = value == null || !List.of("false", "off", "0").contains(value.toLowerCase(Locale.ROOT));
                case "delimiter" -> delimiter = single(name, value);
                case "null" -> nullString = value;
                case "quote" -> quote = single(name, value);
                case "escape" -> escape = single(name, value);
                case "encoding" -> {
                    if (value == null || !value.replace("-", "").equalsIgnoreCase("UTF8")) {
                        throw new PgError("0A000", "COPY encoding " + value + " is not supported: UTF8");
                    }
                }
                default -> throw new PgError("0A000", "COPY option " + name + " is not supported");
            }
        }

        char delimiter() {
            return delimiter != null ? delimiter : csv ? ',' : '\t';
        }

        String nullString() {
            return nullString != null ? nullString : csv ? "" : "\\N";
        }

        private static char single(String name, String value) {
            if (value == null || value.length() != 1) {
                throw new PgError("22023", "COPY " + name + " must be a single one-byte character");
            }
            return value.charAt(0);
        }
    }
}
