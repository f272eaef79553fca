package io.tell.sql.exec;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Values as SQL text and back, as CAST and parameter coercion need them. Text is read as
 * PostgreSQL reads it: surrounding spaces are ignored, integers must be written as integers,
 * booleans as true/false/t/f/yes/no/on/off/1/0, dates as {@code yyyy-mm-dd}, times as
 * {@code hh:mm[:ss[.fffffffff]]}, timestamps as a date, a space or {@code T}, and a time.
 * Lengths count code points, as VARCHAR(n) does.
 */
final class TextFormat {
    /** A timestamp and an optional offset after it (white space or none between). */
    private static final Pattern ZONED = Pattern.compile("(\\d{4,}-\\d{1,2}-\\d{1,2}(?:[ T]\\d{1,2}:\\d{1,2}(?::\\d{1,2}"
            + "(?:\\.\\d{1,9})?)?)?)\\s*([+-]\\d{2}(?::?\\d{2})?|Z|UTC)?", Pattern.CASE_INSENSITIVE);
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern APPROX = Pattern.compile(
            "[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|NaN|[+-]?Infinity", Pattern.CASE_INSENSITIVE);
    private static final String DATE = "(\\d{4,})-(\\d{1,2})-(\\d{1,2})";
    private static final String TIME = "(\\d{1,2}):(\\d{1,2})(?::(\\d{1,2})(?:\\.(\\d{1,9}))?)?";
    private static final Pattern DATE_ONLY = Pattern.compile(DATE);
    private static final Pattern TIME_ONLY = Pattern.compile(TIME);
    private static final Pattern TIMESTAMP = Pattern.compile(DATE + "(?:[ T]" + TIME + ")?");

    private TextFormat() {
    }

    static int length(String s) {
        return s.codePointCount(0, s.length());
    }

    /** {@code s} padded with spaces to {@code length} code points (a non-positive length: as is). */
    static String pad(String s, int length) {
        int n = length(s);
        return length > 0 && n < length ? s + " ".repeat(length - n) : s;
    }

    /** The first {@code length} code points of {@code s}. */
    static String cut(String s, int length) {
        return length(s) <= length ? s : s.substring(0, s.offsetByCodePoints(0, length));
    }

    static String stripTrailingSpaces(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }

    static String formatBoolean(boolean b) {
        return b ? "TRUE" : "FALSE";
    }

    /** A DOUBLE as PostgreSQL prints it: shortest exact digits, {@code 1e+20} style past 15 digits. */
    static String formatDouble(double d) {
        return formatApprox(d, Double.toString(d));
    }

    static String formatReal(float f) {
        return formatApprox(f, Float.toString(f));
    }

    private static String formatApprox(double d, String shortest) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        BigDecimal b = new BigDecimal(shortest).stripTrailingZeros();
        int exponent = b.precision() - b.scale() - 1;
        if (exponent >= -4 && exponent < 15) {
            return b.toPlainString();
        }
        String digits = b.unscaledValue().abs().toString();
        String mantissa = digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
        String exp = String.format(Locale.ROOT, "%02d", Math.abs(exponent));
        return (b.signum() < 0 ? "-" : "") + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
    }

    /** {@code hh:mm:ss} with as many fraction digits as are not zero. */
    static String formatTime(LocalTime t) {
        StringBuilder sb = new StringBuilder(18);
        two(sb, t.getHour()).append(':');
        two(sb, t.getMinute()).append(':');
        two(sb, t.getSecond());
        int nanos = t.getNano();
        if (nanos != 0) {
            String f = String.format(Locale.ROOT, "%09d", nanos);
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            sb.append('.').append(f, 0, end);
        }
        return sb.toString();
    }

    static String formatTimestamp(LocalDateTime t) {
        return t.toLocalDate() + " " + formatTime(t.toLocalTime());
    }

    /** An instant at UTC, as PostgreSQL prints a timestamptz when TimeZone is UTC. */
    static String formatInstant(OffsetDateTime t) {
        return formatTimestamp(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "+00";
    }

    /** A timestamp with an optional offset ({@code +02}, {@code -05:30}, {@code Z}, {@code UTC}); none is UTC. */
    static OffsetDateTime parseInstant(String s) {
        Matcher m = ZONED.matcher(s.strip());
        if (!m.matches()) {
            throw ExecErrors.badText(s, "TIMESTAMP WITH TIME ZONE");
        }
        LocalDateTime local = parseTimestamp(m.group(1).replace('T', ' '));
        String zone = m.group(2);
        ZoneOffset offset;
        if (zone == null || zone.equalsIgnoreCase("Z") || zone.equalsIgnoreCase("UTC")) {
            offset = ZoneOffset.UTC;
        } else {
            try {
                String z = zone.length() == 3 ? zone + ":00" : zone.length() == 5 && zone.indexOf(':') < 0
                        ? zone.substring(0, 3) + ":" + zone.substring(3) : zone;
                offset = ZoneOffset.of(z);
            } catch (DateTimeException e) {
                throw ExecErrors.badText(s, "TIMESTAMP WITH TIME ZONE");
            }
        }
        return local.atOffset(offset).withOffsetSameInstant(ZoneOffset.UTC);
    }

    private static StringBuilder two(StringBuilder sb, int value) {
        return sb.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /** An integer written in {@code s}; VALUE_OUT_OF_RANGE past the long range. */
    static long parseLong(String s, String type) {
        String t = s.strip();
        if (!INTEGER.matcher(t).matches()) {
            throw ExecErrors.badText(s, type);
        }
        try {
            return Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw ExecErrors.outOfRange(t, type);
        }
    }

    static BigDecimal parseDecimal(String s, String type) {
        try {
            return new BigDecimal(s.strip());
        } catch (NumberFormatException e) {
            throw ExecErrors.badText(s, type);
        }
    }

    static double parseDouble(String s, String type) {
        String t = s.strip();
        if (!APPROX.matcher(t).matches()) {
            throw ExecErrors.badText(s, type);
        }
        return switch (t.toLowerCase(Locale.ROOT)) {
            case "nan" -> Double.NaN;
            case "infinity", "+infinity" -> Double.POSITIVE_INFINITY;
            case "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(t);
        };
    }

    static boolean parseBoolean(String s) {
        return switch (s.strip().toLowerCase(Locale.ROOT)) {
            case "true", "t", "yes", "y", "on", "1" -> true;
            case "false", "f", "no", "n", "off", "0" -> false;
            default -> throw ExecErrors.badText(s, "BOOLEAN");
        };
    }

    /**
     * A UUID in PostgreSQL's input forms: 32 hex digits in either case, with or without hyphens
     * after digits 8, 12, 16 and 20, optionally in braces.
     */
    static UUID parseUuid(String text) {
        String s = text.strip();
        if (s.length() > 2 && s.charAt(0) == '{' && s.charAt(s.length() - 1) == '}') {
            s = s.substring(1, s.length() - 1);
        }
        boolean hyphens = s.length() == 36 && s.charAt(8) == '-' && s.charAt(13) == '-' && s.charAt(18) == '-'
                && s.charAt(23) == '-';
        String hex = hyphens ? s.replace("-", "") : s;
        if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw ExecErrors.badText(text, "UUID");
        }
        return new UUID(Long.parseUnsignedLong(hex, 0, 16, 16), Long.parseUnsignedLong(hex, 16, 32, 16));
    }

    /** PostgreSQL's bytea output: {@code \x} and two lower-case hex digits a byte. */
    static String formatBytes(byte[] b) {
        return "\\x" + HexFormat.of().formatHex(b);
    }

    /**
     * PostgreSQL's bytea input: {@code \x} and hex digits (white space between pairs allowed), or
     * else the text's UTF-8 bytes with {@code \\} for a backslash and {@code \nnn} octal escapes.
     */
    static byte[] parseBytes(String s) {
        if (s.startsWith("\\x") || s.startsWith("\\X")) {
            String hex = s.substring(2).replaceAll("\\s+", "");
            try {
                return HexFormat.of().parseHex(hex);
            } catch (IllegalArgumentException e) {
                throw ExecErrors.badText(s, "VARBINARY");
            }
        }
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(utf8.length);
        for (int i = 0; i < utf8.length; i++) {
            if (utf8[i] != '\\') {
                out.write(utf8[i]);
            } else if (i + 1 < utf8.length && utf8[i + 1] == '\\') {
                out.write('\\');
                i++;
            } else if (i + 3 < utf8.length && octal(utf8[i + 1]) <= 3 && octal(utf8[i + 2]) >= 0 && octal(utf8[i + 3]) >= 0) {
                out.write(octal(utf8[i + 1]) * 64 + octal(utf8[i + 2]) * 8 + octal(utf8[i + 3]));
                i += 3;
            } else {
                throw ExecErrors.badText(s, "VARBINARY");
            }
        }
        return out.toByteArray();
    }

    private static int octal(byte b) {
        return b >= '0' && b <= '7' ? b - '0' : -1;
    }

    /** A date, or the date of a timestamp. */
    static LocalDate parseDate(String s) {
        Matcher m = DATE_ONLY.matcher(s.strip());
        if (m.matches()) {
            return date(m, s);
        }
        return parseTimestamp(s).toLocalDate();
    }

    static LocalTime parseTime(String s) {
        Matcher m = TIME_ONLY.matcher(s.strip());
        if (!m.matches()) {
            throw ExecErrors.badText(s, "TIME");
        }
        return time(m, 1, s);
    }

    /** A timestamp; a date alone is midnight. */
    static LocalDateTime parseTimestamp(String s) {
        Matcher m = TIMESTAMP.matcher(s.strip());
        if (!m.matches()) {
            throw ExecErrors.badText(s, "TIMESTAMP");
        }
        LocalDate date = date(m, s);
        return m.group(4) == null ? date.atStartOfDay() : date.atTime(time(m, 4, s));
    }

    private static LocalDate date(Matcher m, String s) {
        try {
            return LocalDate.of(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
        } catch (DateTimeException | NumberFormatException e) {
            throw ExecErrors.badText(s, "DATE");
        }
    }

    private static LocalTime time(Matcher m, int first, String s) {
        String seconds = m.group(first + 2);
        String fraction = m.group(first + 3);
        try {
            int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
            return LocalTime.of(Integer.parseInt(m.group(first)), Integer.parseInt(m.group(first + 1)),
                    seconds == null ? 0 : Integer.parseInt(seconds), nanos);
        } catch (DateTimeException e) {
            throw ExecErrors.badText(s, "TIME");
        }
    }
}
