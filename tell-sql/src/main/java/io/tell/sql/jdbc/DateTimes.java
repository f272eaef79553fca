package io.tell.sql.jdbc;

import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Calendar;

/**
 * Between Tell's zone-less date/time values and JDBC's {@code java.sql} classes. Without a
 * {@link Calendar} the JVM's zone is used (what {@code Timestamp.valueOf} does); with one, its
 * zone. Text forms are SQL's: {@code 2024-05-06 07:08:09.123}.
 */
final class DateTimes {
    private static final DateTimeFormatter TIME = new DateTimeFormatterBuilder()
            .appendPattern("HH:mm:ss").appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).toFormatter();
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE).appendLiteral(' ').append(TIME).toFormatter();

    private DateTimes() {
    }

    static String format(LocalDateTime t) {
        return TIMESTAMP.format(t);
    }

    static String format(LocalTime t) {
        return TIME.format(t);
    }

    static Date date(LocalDate d, Calendar cal) {
        return cal == null ? Date.valueOf(d) : new Date(d.atStartOfDay(zone(cal)).toInstant().toEpochMilli());
    }

    static Timestamp timestamp(LocalDateTime t, Calendar cal) {
        return cal == null ? Timestamp.valueOf(t) : Timestamp.from(t.atZone(zone(cal)).toInstant());
    }

    /** A {@link Time} on 1970-01-01, keeping milliseconds (which {@code Time.valueOf} drops). */
    static Time time(LocalTime t, Calendar cal) {
        ZoneId zone = cal == null ? ZoneId.systemDefault() : zone(cal);
        return new Time(LocalDate.EPOCH.atTime(t).atZone(zone).toInstant().toEpochMilli());
    }

    static LocalDate localDate(Date d, Calendar cal) {
        return cal == null ? d.toLocalDate() : Instant.ofEpochMilli(d.getTime()).atZone(zone(cal)).toLocalDate();
    }

    static LocalDateTime localDateTime(Timestamp t, Calendar cal) {
        return cal == null ? t.toLocalDateTime() : LocalDateTime.ofInstant(t.toInstant(), zone(cal));
    }

    static LocalTime localTime(Time t, Calendar cal) {
        ZoneId zone = cal == null ? ZoneId.systemDefault() : zone(cal);
        return Instant.ofEpochMilli(t.getTime()).atZone(zone).toLocalTime();
    }

    /** A {@code java.util.Date} (but not its {@code java.sql} subclasses) as a local date-time in the JVM's zone. */
    static LocalDateTime localDateTime(java.util.Date d) {
        return LocalDateTime.ofInstant(d.toInstant(), ZoneId.systemDefault());
    }

    private static ZoneId zone(Calendar cal) {
        return cal.getTimeZone().toZoneId();
    }
}
