package io.tell.sql.exec;

import static io.tell.sql.exec.RexFixture.row;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.error.ErrorCode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import org.junit.jupiter.api.Test;

/** EXTRACT, FLOOR/CEIL to a unit, the statement's current time, and interval arithmetic. */
class ExprDateTest {
    private static final LocalDate LEAP_DAY = LocalDate.of(2020, 2, 29); // a Saturday
    private static final LocalDateTime TS = LocalDateTime.of(2020, 2, 29, 10, 11, 12, 345_678_000);
    private final RexFixture f = new RexFixture();

    private Object extract(String unit, String column, Object value) {
        return f.eval("EXTRACT(" + unit + " FROM " + column + ")", row(column, value));
    }

    @Test
    void extractFromDates() {
        assertEquals(2020L, extract("YEAR", "DT", LEAP_DAY));
        assertEquals(1L, extract("QUARTER", "DT", LEAP_DAY));
        assertEquals(2L, extract("MONTH", "DT", LEAP_DAY));
        assertEquals(29L, extract("DAY", "DT", LEAP_DAY));
        assertEquals(60L, extract("DOY", "DT", LEAP_DAY));
        assertEquals(7L, extract("DOW", "DT", LEAP_DAY)); // Sunday is 1
        assertEquals(1L, extract("DOW", "DT", LocalDate.of(2020, 3, 1)));
        assertEquals(6L, extract("ISODOW", "DT", LEAP_DAY));
        assertEquals(9L, extract("WEEK", "DT", LEAP_DAY));
        assertEquals(21L, extract("CENTURY", "DT", LEAP_DAY));
        assertEquals(LEAP_DAY.toEpochDay() * 86_400L, extract("EPOCH", "DT", LEAP_DAY));
    }

    @Test
    void extractFromTimestampsAndTimes() {
        assertEquals(2020L, extract("YEAR", "TS", TS));
        assertEquals(29L, extract("DAY", "TS", TS));
        assertEquals(10L, extract("HOUR", "TS", TS));
        assertEquals(11L, extract("MINUTE", "TS", TS));
        assertEquals(12L, extract("SECOND", "TS", TS));
        assertEquals(12_345L, extract("MILLISECOND", "TS", TS));
        assertEquals(12_345_678L, extract("MICROSECOND", "TS", TS));
        assertEquals(1582971072L, extract("EPOCH", "TS", TS));
        assertEquals(10L, extract("HOUR", "TM", LocalTime.of(10, 11)));
        assertEquals(11L, extract("MINUTE", "TM", LocalTime.of(10, 11)));
    }

    @Test
    void currentTimeIsTheStatementTime() {
        assertEquals(RexFixture.NOW.toLocalDate(), f.eval("CURRENT_DATE", row()));
        assertEquals(RexFixture.NOW, f.eval("CURRENT_TIMESTAMP", row()));
        assertEquals(RexFixture.NOW, f.eval("LOCALTIMESTAMP", row()));
        assertEquals(RexFixture.NOW.withNano(123_000_000), f.eval("CURRENT_TIMESTAMP(3)", row()));
        assertEquals(RexFixture.NOW.toLocalTime(), f.eval("LOCALTIME", row()));
        assertEquals(RexFixture.NOW.toLocalTime().withNano(0), f.eval("CURRENT_TIME(0)", row()));
        assertEquals(true, f.eval("DT > CURRENT_DATE - INTERVAL '7' DAY", row("DT", RexFixture.NOW.toLocalDate())));
    }

    @Test
    void datetimePlusMinusInterval() {
        assertEquals(LocalDate.of(2020, 3, 1), f.eval("DT + INTERVAL '1' DAY", row("DT", LEAP_DAY)));
        assertEquals(LocalDate.of(2020, 3, 1), f.eval("INTERVAL '1' DAY + DT", row("DT", LEAP_DAY)));
        assertEquals(LocalDate.of(2020, 2, 28), f.eval("DT - INTERVAL '1' HOUR", row("DT", LEAP_DAY)));
        assertEquals(LocalDate.of(2019, 2, 28), f.eval("DT - INTERVAL '1' YEAR", row("DT", LEAP_DAY)));
        assertEquals(LocalDate.of(2020, 2, 29), f.eval("DT + INTERVAL '1' MONTH", row("DT", LocalDate.of(2020, 1, 31))));
        assertEquals(TS.minusMonths(2), f.eval("TS - INTERVAL '2' MONTH", row("TS", TS)));
        assertEquals(TS.plusMinutes(90), f.eval("TS + INTERVAL '1:30' HOUR TO MINUTE", row("TS", TS)));
        assertEquals(TS.plusSeconds(1).plusNanos(500_000_000), f.eval("TS + INTERVAL '1.5' SECOND", row("TS", TS)));
        assertEquals(LocalTime.of(0, 30), f.eval("TM + INTERVAL '1' HOUR", row("TM", LocalTime.of(23, 30))));
    }

    @Test
    void datetimeDifferenceIsAnInterval() {
        // The interval is only an intermediate value; its Long millis are exposed here.
        assertEquals(59L * 86_400_000L, f.eval("(TS - TIMESTAMP '2020-01-01 00:00:00') DAY", row("TS", TS)));
        assertEquals(1, f.eval("(TS - TIMESTAMP '2020-01-01 00:00:00') MONTH", row("TS", TS)));
        assertEquals(true, f.eval("(TS - TIMESTAMP '2020-01-01 00:00:00') DAY > INTERVAL '58' DAY", row("TS", TS)));
    }

    @Test
    void floorAndCeilToAUnit() {
        assertEquals(LocalDateTime.of(2020, 2, 29, 0, 0), f.eval("FLOOR(TS TO DAY)", row("TS", TS)));
        assertEquals(LocalDateTime.of(2020, 3, 1, 0, 0), f.eval("CEIL(TS TO DAY)", row("TS", TS)));
        assertEquals(LocalDateTime.of(2020, 1, 1, 0, 0), f.eval("FLOOR(TS TO YEAR)", row("TS", TS)));
        assertEquals(LocalDateTime.of(2020, 2, 29, 10, 0), f.eval("FLOOR(TS TO HOUR)", row("TS", TS)));
        assertEquals(LocalDateTime.of(2020, 4, 1, 0, 0), f.eval("CEIL(TS TO QUARTER)", row("TS", TS)));
        assertEquals(LocalDate.of(2020, 2, 1), f.eval("FLOOR(DT TO MONTH)", row("DT", LEAP_DAY)));
        assertEquals(LocalDate.of(2020, 2, 1), f.eval("CEIL(DT TO MONTH)", row("DT", LocalDate.of(2020, 2, 1))));
        assertEquals(LocalDate.of(2020, 2, 23), f.eval("FLOOR(DT TO WEEK)", row("DT", LEAP_DAY)));
    }

    @Test
    void unsupportedUnitsFailAtCompileTime() {
        assertEquals(ErrorCode.FEATURE_NOT_SUPPORTED, RexFixture.compileFailure(f.rex("EXTRACT(HOUR FROM DT)")));
    }
}
