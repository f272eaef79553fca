package io.tell.sql.exec;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.runtime.SqlFunctions;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * String functions. Positions and lengths count code points, as VARCHAR(n) lengths do; CHAR
 * values keep their padding (Calcite types {@code CHAR(2) || CHAR(3)} as CHAR(5)).
 */
final class StringFunctions {
    private StringFunctions() {
    }

    /** {@code a || b}; an operand of another type is formatted as CAST to a string would. */
    static Expr concat(RexCall call, List<Expr> operands) {
        @SuppressWarnings("unchecked")
        Function<Object, String>[] formats = new Function[operands.size()];
        for (int i = 0; i < formats.length; i++) {
            SqlTypeName t = call.getOperands().get(i).getType().getSqlTypeName();
            formats[i] = t == SqlTypeName.CHAR || t == SqlTypeName.VARCHAR
                    ? v -> (String) v : Casts.formatter(call.getOperands().get(i).getType());
        }
        return Strict.nary(operands, values -> {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < values.length; i++) {
                sb.append(formats[i].apply(values[i]));
            }
            return sb.toString();
        });
    }

    static Expr upper(Expr operand) {
        return Strict.unary(operand, v -> ((String) v).toUpperCase(Locale.ROOT));
    }

    static Expr lower(Expr operand) {
        return Strict.unary(operand, v -> ((String) v).toLowerCase(Locale.ROOT));
    }

    static Expr initcap(Expr operand) {
        return Strict.unary(operand, v -> SqlFunctions.initcap((String) v));
    }

    static Expr charLength(Expr operand) {
        return Strict.unary(operand, v -> TextFormat.length((String) v));
    }

    /**
     * {@code ASCII(s)}: the code point of the first character, 0 for an empty string (as
     * PostgreSQL and Calcite; the CH-benCHmark maps a customer to a nation with it).
     */
    static Expr ascii(Expr operand) {
        return Strict.unary(operand, v -> {
            String s = (String) v;
            return s.isEmpty() ? 0 : s.codePointAt(0);
        });
    }

    /** {@code TRIM(flag chars FROM s)}: removes any of {@code chars} (usually one space) from the chosen ends. */
    static Expr trim(RexCall call, List<Expr> operands) {
        SqlTrimFunction.Flag flag = ((RexLiteral) call.getOperands().get(0)).getValueAs(SqlTrimFunction.Flag.class);
        boolean leading = flag != SqlTrimFunction.Flag.TRAILING;
        boolean trailing = flag != SqlTrimFunction.Flag.LEADING;
        return Strict.binary(operands.get(1), operands.get(2), (chars, s) -> trim((String) s, (String) chars, leading, trailing));
    }

    private static String trim(String s, String chars, boolean leading, boolean trailing) {
        int begin = 0;
        int end = s.length();
        if (leading) {
            while (begin < end && chars.indexOf(s.charAt(begin)) >= 0) {
                begin++;
            }
        }
        if (trailing) {
            while (end > begin && chars.indexOf(s.charAt(end - 1)) >= 0) {
                end--;
            }
        }
        return s.substring(begin, end);
    }

    /** {@code SUBSTRING(s FROM start [FOR length])} with SQL's rules for starts before 1. */
    static Expr substring(List<Expr> operands) {
        if (operands.size() == 2) {
            return Strict.binary(operands.get(0), operands.get(1),
                    (s, start) -> substring((String) s, ((Number) start).longValue(), Long.MAX_VALUE / 2));
        }
        return Strict.ternary(operands.get(0), operands.get(1), operands.get(2), (s, start, length) -> {
            long n = ((Number) length).longValue();
            if (n < 0) {
                throw ExecErrors.data("negative substring length not allowed");
            }
            return substring((String) s, ((Number) start).longValue(), n);
        });
    }

    private static String substring(String s, long start, long length) {
        long from = Math.max(start, 1);
        long to = Math.min(start + length, TextFormat.length(s) + 1L); // exclusive, 1-based
        if (to <= from) {
            return "";
        }
        int begin = s.offsetByCodePoints(0, (int) from - 1);
        return s.substring(begin, s.offsetByCodePoints(begin, (int) (to - from)));
    }

    /** {@code POSITION(needle IN s [FROM start])}: the 1-based code point index of needle, 0 when absent. */
    static Expr position(List<Expr> operands) {
        if (operands.size() == 2) {
            return Strict.binary(operands.get(0), operands.get(1), (needle, s) -> position((String) needle, (String) s, 1));
        }
        return Strict.ternary(operands.get(0), operands.get(1), operands.get(2),
                (needle, s, start) -> position((String) needle, (String) s, ((Number) start).longValue()));
    }

    private static int position(String needle, String s, long start) {
        long from = Math.max(start, 1);
        if (from > TextFormat.length(s) + 1L) {
            return 0;
        }
        int i = s.indexOf(needle, s.offsetByCodePoints(0, (int) from - 1));
        return i < 0 ? 0 : s.codePointCount(0, i) + 1;
    }

    /** {@code OVERLAY(s PLACING r FROM start [FOR length])}. */
    static Expr overlay(List<Expr> operands) {
        if (operands.size() == 3) {
            return Strict.ternary(operands.get(0), operands.get(1), operands.get(2),
                    (s, r, start) -> SqlFunctions.overlay((String) s, (String) r, ((Number) start).intValue()));
        }
        return Strict.nary(operands, v -> SqlFunctions.overlay((String) v[0], (String) v[1],
                ((Number) v[2]).intValue(), ((Number) v[3]).intValue()));
    }
}
