package io.tell.sql.exec;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;

/**
 * PostgreSQL's {@code to_char(datetime, format)} for dates, times and timestamps (a TIMESTAMP WITH TIME ZONE
 * at UTC, the session's time zone): the template patterns {@code YYYY YYY YY Y MM DD DDD D HH24 HH12 HH MI SS
 * MS US Q AM PM am pm Month MONTH month Mon MON mon Day DAY day Dy DY dy}, the {@code FM} prefix (no padding),
 * text in double quotes, and every other character as it is. Numbers are not formatted (0A000).
 */
final class ToChar {
    /** Longest first, so that HH24 is not read as HH and 24. */
    private static final List<String> PATTERNS = List.of("HH24", "HH12", "YYYY", "MONTH", "Month", "month", "DDD",
            "YYY", "MON", "Mon", "mon", "DAY", "Day", "day", "HH", "MI", "SS", "MS", "US", "YY", "MM", "DD", "AM", "PM",
            "am", "pm", "DY", "Dy", "dy", "Y", "D", "Q");

    private ToChar() {
    }

    static Expr compile(RexCall call, List<Expr> operands) {
        switch (call.getOperands().get(0).getType().getSqlTypeName()) {
            case DATE, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
            }
            default -> throw ExecErrors.unsupported("to_char of " + call.getOperands().get(0).getType().getSqlTypeName());
        }
        return Strict.nary(operands, v -> format(dateTime(v[0]), (String) v[1]));
    }

    private static LocalDateTime dateTime(Object v) {
        return switch (v) {
            case LocalDate d -> d.atStartOfDay();
            case LocalTime t -> LocalDate.EPOCH.atTime(t);
            case OffsetDateTime t -> t.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
            default -> (LocalDateTime) v;
        };
    }

    static String format(LocalDateTime t, String template) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            if (template.charAt(i) == '"') {
                int end = template.indexOf('"', i + 1);
                out.append(template, i + 1, end < 0 ? template.length() : end);
                i = end < 0 ? template.length() : end + 1;
                continue;
            }
            boolean fill = template.startsWith("FM", i);
            int at = fill ? i + 2 : i;
            String pattern = PATTERNS.stream().filter(p -> template.startsWith(p, at)).findFirst().orElse(null);
            if (pattern == null) {
                out.append(template.charAt(i));
                i++;
                continue;
            }
            out.append(field(t, pattern, fill));
            i = at + pattern.length();
        }
        return out.toString();
    }

    private static String field(LocalDateTime t, String p, boolean fill) {
        int hour12 = t.getHour() % 12 == 0 ? 12 : t.getHour() % 12;
        return switch (p) {
            case "YYYY" -> number(t.getYear(), 4, fill);
            case "YYY" -> number(t.getYear() % 1000, 3, fill);
            case "YY" -> number(t.getYear() % 100, 2, fill);
            case "Y" -> number(t.getYear() % 10, 1, fill);
            case "MM" -> number(t.getMonthValue(), 2, fill);
            case "DD" -> number(t.getDayOfMonth(), 2, fill);
            case "DDD" -> number(t.getDayOfYear(), 3, fill);
            case "D" -> number(t.getDayOfWeek().getValue() % 7 + 1, 1, fill);
            case "HH24" -> number(t.getHour(), 2, fill);
            case "HH12", "HH" -> number(hour12, 2, fill);
            case "MI" -> number(t.getMinute(), 2, fill);
            case "SS" -> number(t.getSecond(), 2, fill);
            case "MS" -> number(t.getNano() / 1_000_000, 3, fill);
            case "US" -> number(t.getNano() / 1_000, 6, fill);
            case "Q" -> number((t.getMonthValue() - 1) / 3 + 1, 1, fill);
            case "AM", "PM" -> t.getHour() < 12 ? "AM" : "PM";
            case "am", "pm" -> t.getHour() < 12 ? "am" : "pm";
            case "MONTH", "Month", "month" -> name(t.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH), p, fill);
            case "MON", "Mon", "mon" -> name(t.getMonth().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), p, true);
            case "DAY", "Day", "day" -> name(t.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH), p, fill);
            default -> name(t.getDayOfWeek().getDisplayName(TextStyle.SHORT, Locale.ENGLISH), p, true); // DY, Dy, dy
        };
    }

    private static String number(int n, int width, boolean fill) {
        String digits = Integer.toString(n);
        return fill || digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }

    /** A month's or day's name in the pattern's case; full names are padded to 9 characters unless {@code fill}. */
    private static String name(String name, String pattern, boolean fill) {
        String cased = Character.isLowerCase(pattern.charAt(0)) ? name.toLowerCase(Locale.ENGLISH)
                : Character.isUpperCase(pattern.charAt(1)) ? name.toUpperCase(Locale.ENGLISH) : name;
        return fill ? cased : String.format("%-9s", cased);
    }
}
