package io.tell.sql.exec;

import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.ChronoUnit;
import java.time.temporal.IsoFields;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * EXTRACT, FLOOR/CEIL of datetimes, the current date and time of the statement, and datetime
 * arithmetic with intervals (a year-month interval is Integer months, a day-time interval Long
 * milliseconds, as in Calcite's literals). EXTRACT numbers as Calcite does: DOW 1 (Sunday) to 7,
 * WEEK the ISO week, SECOND whole seconds.
 */
final class DateFunctions {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private DateFunctions() {
    }

    static Expr extract(RexCall call, List<Expr> operands) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class);
        RelDataType from = call.getOperands().get(1).getType();
        UnaryOperator<Object> field = switch (from.getSqlTypeName()) {
            case DATE -> v -> dateField((LocalDate) v, unit);
            case TIMESTAMP -> v -> timestampField((LocalDateTime) v, unit);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> v -> timestampField(((java.time.OffsetDateTime) v).toLocalDateTime(), unit);
            case TIME -> v -> timeField((LocalTime) v, unit);
            default -> throw ExecErrors.unsupported("EXTRACT from " + from.getFullTypeString());
        };
        check(field, from.getSqlTypeName());
        Expr value = Strict.unary(operands.get(1), field);
        IntegerType result = IntegerType.of(call.getType().getSqlTypeName()); // BIGINT in Calcite
        if (result == null) {
            throw ExecErrors.unsupported("EXTRACT as " + call.getType().getFullTypeString());
        }
        return result == IntegerType.BIGINT ? value : Strict.unary(value, v -> result.box((Long) v));
    }

    /** Calls {@code field} on a sample value so that an unsupported unit fails at compile time. */
    private static void check(UnaryOperator<Object> field, SqlTypeName from) {
        field.apply(switch (from) {
            case DATE -> LocalDate.EPOCH;
            case TIME -> LocalTime.MIDNIGHT;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> LocalDate.EPOCH.atStartOfDay().atOffset(java.time.ZoneOffset.UTC);
            default -> LocalDate.EPOCH.atStartOfDay();
        });
    }

    private static long dateField(LocalDate d, TimeUnitRange unit) {
        return switch (unit) {
            case YEAR -> d.getYear();
            case ISOYEAR -> d.get(IsoFields.WEEK_BASED_YEAR);
            case QUARTER -> (d.getMonthValue() + 2) / 3;
            case MONTH -> d.getMonthValue();
            case WEEK -> d.get(IsoFields.WEEK_OF_WEEK_BASED_YEAR);
            case DAY -> d.getDayOfMonth();
            case DOW -> d.getDayOfWeek().getValue() % 7 + 1;
            case ISODOW -> d.getDayOfWeek().getValue();
            case DOY -> d.getDayOfYear();
            case DECADE -> Math.floorDiv(d.getYear(), 10);
            case CENTURY -> d.getYear() > 0 ? (d.getYear() + 99) / 100 : -((99 - d.getYear()) / 100);
            case MILLENNIUM -> d.getYear() > 0 ? (d.getYear() + 999) / 1000 : -((999 - d.getYear()) / 1000);
            case EPOCH -> d.toEpochDay() * 86_400L;
            default -> throw ExecErrors.unsupported("EXTRACT(" + unit + ") from a DATE");
        };
    }

    private static long timeField(LocalTime t, TimeUnitRange unit) {
        return switch (unit) {
            case HOUR -> t.getHour();
            case MINUTE -> t.getMinute();
            case SECOND -> t.getSecond();
            case MILLISECOND -> t.getSecond() * 1_000L + t.getNano() / 1_000_000;
            case MICROSECOND -> t.getSecond() * 1_000_000L + t.getNano() / 1_000;
            case NANOSECOND -> t.getSecond() * 1_000_000_000L + t.getNano();
            case EPOCH -> t.toSecondOfDay();
            default -> throw ExecErrors.unsupported("EXTRACT(" + unit + ") from a TIME");
        };
    }

    private static long timestampField(LocalDateTime t, TimeUnitRange unit) {
        return switch (unit) {
            case HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, NANOSECOND -> timeField(t.toLocalTime(), unit);
            case EPOCH -> t.toLocalDate().toEpochDay() * 86_400L + t.toLocalTime().toSecondOfDay();
            default -> dateField(t.toLocalDate(), unit);
        };
    }

    /** {@code FLOOR(x TO unit)} or {@code CEIL(x TO unit)} of a DATE or TIMESTAMP. */
    static Expr floor(RexCall call, List<Expr> operands, boolean ceil) {
        TimeUnitRange unit = ((RexLiteral) call.getOperands().get(1)).getValueAs(TimeUnitRange.class);
        SqlTypeName t = call.getOperands().get(0).getType().getSqlTypeName();
        UnaryOperator<LocalDateTime> down = switch (unit) {
            case YEAR -> v -> v.toLocalDate().withDayOfYear(1).atStartOfDay();
            case QUARTER -> v -> v.toLocalDate().withMonth((v.getMonthValue() - 1) / 3 * 3 + 1).withDayOfMonth(1).atStartOfDay();
            case MONTH -> v -> v.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case WEEK -> v -> v.toLocalDate().with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY)).atStartOfDay();
            case DAY -> v -> v.truncatedTo(ChronoUnit.DAYS);
            case HOUR -> v -> v.truncatedTo(ChronoUnit.HOURS);
            case MINUTE -> v -> v.truncatedTo(ChronoUnit.MINUTES);
            case SECOND -> v -> v.truncatedTo(ChronoUnit.SECONDS);
            default -> throw ExecErrors.unsupported((ceil ? "CEIL" : "FLOOR") + " to " + unit);
        };
        ChronoUnit step = switch (unit) {
            case YEAR -> ChronoUnit.YEARS;
            case QUARTER, MONTH -> ChronoUnit.MONTHS;
            case WEEK -> ChronoUnit.WEEKS;
            case DAY -> ChronoUnit.DAYS;
            case HOUR -> ChronoUnit.HOURS;
            case MINUTE -> ChronoUnit.MINUTES;
            default -> ChronoUnit.SECONDS;
        };
        long amount = unit == TimeUnitRange.QUARTER ? 3 : 1;
        UnaryOperator<LocalDateTime> round = ceil ? v -> {
            LocalDateTime f = down.apply(v);
            return f.equals(v) ? f : f.plus(amount, step);
        } : down;
        return switch (t) {
            case TIMESTAMP -> Strict.unary(operands.get(0), v -> round.apply((LocalDateTime) v));
            case DATE -> Strict.unary(operands.get(0), v -> round.apply(((LocalDate) v).atStartOfDay()).toLocalDate());
            default -> throw ExecErrors.unsupported("FLOOR/CEIL of " + call.getOperands().get(0).getType().getFullTypeString());
        };
    }

    /** CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP: the statement's start time. */
    static Expr current(RexCall call) {
        SqlTypeName t = call.getType().getSqlTypeName();
        int precision = call.getOperands().isEmpty() ? 9
                : ((RexLiteral) call.getOperands().get(0)).getValueAs(Integer.class);
        return switch (t) {
            case DATE -> (row, ctx) -> ctx.statementTime().toLocalDate();
            case TIME -> (row, ctx) -> truncate(ctx.statementTime(), precision).toLocalTime();
            case TIMESTAMP -> (row, ctx) -> truncate(ctx.statementTime(), precision);
            default -> throw ExecErrors.unsupported(call.getOperator().getName() + " as " + call.getType().getFullTypeString());
        };
    }

    private static LocalDateTime truncate(LocalDateTime t, int digits) {
        if (digits >= 9) {
            return t;
        }
        int unit = (int) Math.pow(10, 9 - digits);
        return t.withNano(t.getNano() / unit * unit);
    }

    /**
     * {@code datetime ± interval} (either order for +), or {@code datetime - datetime} giving an
     * interval; null when the call is not datetime arithmetic.
     */
    static Expr arithmetic(RexCall call, Expr left, Expr right, boolean minus) {
        RelDataType l = call.getOperands().get(0).getType();
        RelDataType r = call.getOperands().get(1).getType();
        SqlTypeName result = call.getType().getSqlTypeName();
        if (SqlTypeName.INTERVAL_TYPES.contains(result) && isDatetime(l) && isDatetime(r)) {
            return difference(call, left, right, l, r);
        }
        if (isDatetime(l) && isInterval(r)) {
            return shift(left, right, l.getSqlTypeName(), r.getSqlTypeName(), minus);
        }
        if (!minus && isInterval(l) && isDatetime(r)) {
            return shift(right, left, r.getSqlTypeName(), l.getSqlTypeName(), false);
        }
        return null;
    }

    private static boolean isDatetime(RelDataType t) {
        SqlTypeName n = t.getSqlTypeName();
        return n == SqlTypeName.DATE || n == SqlTypeName.TIME || n == SqlTypeName.TIMESTAMP;
    }

    private static boolean isInterval(RelDataType t) {
        return SqlTypeName.INTERVAL_TYPES.contains(t.getSqlTypeName());
    }

    private static Expr shift(Expr datetime, Expr interval, SqlTypeName type, SqlTypeName unit, boolean minus) {
        int sign = minus ? -1 : 1;
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(unit)) {
            return Strict.binary(datetime, interval, (d, i) -> {
                long months = sign * ((Number) i).longValue();
                return switch (type) {
                    case DATE -> ((LocalDate) d).plusMonths(months);
                    case TIMESTAMP -> ((LocalDateTime) d).plusMonths(months);
                    default -> d; // a TIME has no months
                };
            });
        }
        return Strict.binary(datetime, interval, (d, i) -> {
            long millis = sign * ((Number) i).longValue();
            return switch (type) {
                case DATE -> ((LocalDate) d).plusDays(Math.floorDiv(millis, MILLIS_PER_DAY));
                case TIMESTAMP -> ((LocalDateTime) d).plus(millis, ChronoUnit.MILLIS);
                default -> ((LocalTime) d).plus(millis, ChronoUnit.MILLIS);
            };
        });
    }

    /** {@code (a - b) unit}: months between for a year-month interval, else milliseconds cut to the leading unit. */
    private static Expr difference(RexCall call, Expr left, Expr right, RelDataType l, RelDataType r) {
        SqlTypeName result = call.getType().getSqlTypeName();
        UnaryOperator<Object> a = toTimestamp(l);
        UnaryOperator<Object> b = toTimestamp(r);
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(result)) {
            long per = result == SqlTypeName.INTERVAL_YEAR ? 12 : 1;
            return Strict.binary(left, right, (x, y) -> Math.toIntExact(
                    ChronoUnit.MONTHS.between((LocalDateTime) b.apply(y), (LocalDateTime) a.apply(x)) / per * per));
        }
        long unit = switch (call.getType().getIntervalQualifier().getStartUnit()) {
            case DAY -> MILLIS_PER_DAY;
            case HOUR -> 3_600_000L;
            case MINUTE -> 60_000L;
            default -> 1_000L;
        };
        return Strict.binary(left, right,
                (x, y) -> ChronoUnit.MILLIS.between((LocalDateTime) b.apply(y), (LocalDateTime) a.apply(x)) / unit * unit);
    }

    private static UnaryOperator<Object> toTimestamp(RelDataType t) {
        return switch (t.getSqlTypeName()) {
            case DATE -> v -> ((LocalDate) v).atStartOfDay();
            case TIME -> v -> LocalDate.EPOCH.atTime((LocalTime) v);
            default -> v -> v;
        };
    }
}
