package io.tell.server.internal;

import io.tell.sql.exec.Values;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Values in PostgreSQL's text format, exactly as a PostgreSQL server writes them with
 * DateStyle ISO and extra_float_digits above 0: booleans {@code t}/{@code f}, timestamps
 * {@code 2024-05-06 07:08:09.123456} (microseconds, trailing zeros dropped), numerics plain,
 * floats with the shortest exact digits, bytea as {@code \x} and hex. Parsing leaves text to the
 * engine (which reads it as CAST does) except what only PostgreSQL clients write: a time zone
 * after a date or timestamp, which a timestamp without time zone ignores, as PostgreSQL does.
 */
final class TextValues {
    /** A zone after white space or after a time's seconds; never a date's own "-01". */
    private static final Pattern ZONE = Pattern.compile(
            "(?:\\s+|(?<=:\\d\\d)|(?<=\\.\\d{1,9}))(?:[+-]\\d{1,2}(?::?\\d{2}(?::?\\d{2})?)?|Z|UTC|GMT)$");

    private TextValues() {
    }

    static String format(Object v) {
        return switch (v) {
            case Boolean b -> b ? "t" : "f";
            case BigDecimal d -> d.toPlainString();
            case Double d -> Values.formatDouble(d);
            case Float f -> Values.formatReal(f);
            case LocalDateTime t -> time(t);
            case LocalTime t -> time(t);
            case LocalDate d -> d.toString();
            case OffsetDateTime t -> time(t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime()) + "+00";
            case byte[] b -> Values.formatBytes(b);
            default -> v.toString();
        };
    }

    /** {@code hh:mm:ss} and up to six fraction digits, as PostgreSQL's microsecond resolution shows them. */
    private static String time(LocalTime t) {
        String s = String.format(Locale.ROOT, "%02d:%02d:%02d", t.getHour(), t.getMinute(), t.getSecond());
        int micros = t.getNano() / 1000;
        if (micros == 0) {
            return s;
        }
        String f = String.format(Locale.ROOT, "%06d", micros);
        int end = f.length();
        while (f.charAt(end - 1) == '0') {
            end--;
        }
        return s + "." + f.substring(0, end);
    }

    private static String time(LocalDateTime t) {
        return t.toLocalDate() + " " + time(t.toLocalTime());
    }

    /** Text a client sent for a value of {@code type}, as the object the engine takes. */
    static Object parse(String text, PgType type) {
        return switch (type) {
            case DATE, TIMESTAMP, TIME -> ZONE.matcher(text.strip()).replaceFirst("");
            case TIMESTAMPTZ -> Values.instant(text); // the zone is the value's
            case BYTEA -> Values.parseBytes(text);
            default -> text;
        };
    }
}
