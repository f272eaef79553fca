package io.tell.server.internal;

import java.util.ArrayList;
import java.util.List;

/** Splits one COPY record into fields (null for SQL NULL) in PostgreSQL's text and CSV formats. */
final class CopyFormats {
    private CopyFormats() {
    }

    /** Text format: fields split at the delimiter, the null string ({@code \N}) as NULL, backslash escapes decoded. */
    static List<String> text(String line, CopyCommand c) {
        List<String> fields = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == c.delimiter()) {
                String raw = line.substring(start, Math.min(i, line.length()));
                fields.add(raw.equals(c.nullString()) ? null : unescape(raw));
                start = i + 1;
            } else if (line.charAt(i) == '\\') {
                i++; // an escaped character never ends a field
            }
        }
        return fields;
    }

    private static String unescape(String raw) {
        if (raw.indexOf('\\') < 0) {
            return raw;
        }
        StringBuilder value = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char ch = raw.charAt(i);
            if (ch != '\\' || i + 1 == raw.length()) {
                value.append(ch);
                continue;
            }
            char e = raw.charAt(++i);
            switch (e) {
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'n' -> value.append('\n');
                case 'r' -> value.append('\r');
                case 't' -> value.append('\t');
                case 'v' -> value.append('\u000B');
                case 'x' -> i = code(raw, i + 1, 2, 16, value, 'x');
                default -> i = e >= '0' && e <= '7' ? code(raw, i, 3, 8, value, e) : append(value, e, i);
            }
        }
        return value.toString();
    }

    private static int append(StringBuilder value, char c, int i) {
        value.append(c); // \\, \<delimiter> and any other escaped character stand for themselves
        return i;
    }

    /** Up to {@code max} digits of {@code radix} from {@code from} as one character; returns the index of the last digit. */
    private static int code(String raw, int from, int max, int radix, StringBuilder value, char plain) {
        int end = from;
        while (end < raw.length() && end - from < max && Character.digit(raw.charAt(end), radix) >= 0) {
            end++;
        }
        if (end == from) {
            value.append(plain);
            return from - 1;
        }
        value.append((char) Integer.parseInt(raw, from, end, radix));
        return end - 1;
    }

    /** CSV: quoted fields may hold delimiters, quotes (doubled or escaped) and newlines; an unquoted null string is NULL. */
    static List<String> csv(String record, CopyCommand c) {
        List<String> fields = new ArrayList<>();
        StringBuilder value = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i <= record.length(); i++) {
            if (i == record.length() || !quoted && record.charAt(i) == c.delimiter()) {
                String v = value.toString();
                fields.add(!wasQuoted && v.equals(c.nullString()) ? null : v);
                value.setLength(0);
                wasQuoted = false;
                continue;
            }
            char ch = record.charAt(i);
            boolean escapes = i + 1 < record.length()
                    && (record.charAt(i + 1) == c.quote() || record.charAt(i + 1) == c.escape());
            if (quoted && ch == c.escape() && escapes) {
                value.append(record.charAt(++i));
            } else if (ch == c.quote()) {
                quoted = !quoted;
                wasQuoted = true;
            } else {
                value.append(ch);
            }
        }
        return fields;
    }
}
