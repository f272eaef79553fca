package io.tell.sql.exec;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Comparator;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Comparison operators and the one ordering of SQL values they, MIN/MAX and SEARCH share.
 * Operands of different numeric types compare by promotion (integers as long, with a decimal as
 * BigDecimal, with an approximate number as double); strings compare by code point, the order
 * index keys have, and a CHAR operand ignores trailing spaces (PAD SPACE); DATE against
 * TIMESTAMP compares the date as midnight.
 */
final class Comparisons {
    private Comparisons() {
    }

    static Expr compile(RexCall call, Expr left, Expr right) {
        Comparator<Object> cmp = comparator(call.getOperands().get(0).getType(), call.getOperands().get(1).getType());
        return switch (call.getKind()) {
            case EQUALS -> test(left, right, cmp, c -> c == 0);
            case NOT_EQUALS -> test(left, right, cmp, c -> c != 0);
            case LESS_THAN -> test(left, right, cmp, c -> c < 0);
            case LESS_THAN_OR_EQUAL -> test(left, right, cmp, c -> c <= 0);
            case GREATER_THAN -> test(left, right, cmp, c -> c > 0);
            case GREATER_THAN_OR_EQUAL -> test(left, right, cmp, c -> c >= 0);
            case IS_DISTINCT_FROM -> distinct(left, right, cmp, true);
            case IS_NOT_DISTINCT_FROM -> distinct(left, right, cmp, false);
            default -> throw ExecErrors.unsupported("comparison " + call.getOperator().getName());
        };
    }

    private static Expr test(Expr left, Expr right, Comparator<Object> cmp, IntPredicate outcome) {
        return (row, ctx) -> {
            Object a = left.eval(row, ctx);
            if (a == null) {
                return null;
            }
            Object b = right.eval(row, ctx);
            return b == null ? null : outcome.test(cmp.compare(a, b));
        };
    }

    private static Expr distinct(Expr left, Expr right, Comparator<Object> cmp, boolean whenDistinct) {
        return (row, ctx) -> {
            Object a = left.eval(row, ctx);
            Object b = right.eval(row, ctx);
            boolean distinct = a == null || b == null ? a != b : cmp.compare(a, b) != 0;
            return distinct == whenDistinct;
        };
    }

    /** Orders a non-null value of type {@code left} against a non-null value of type {@code right}. */
    static Comparator<Object> comparator(RelDataType left, RelDataType right) {
        SqlTypeName l = left.getSqlTypeName();
        SqlTypeName r = right.getSqlTypeName();
        if (l == SqlTypeName.NULL || r == SqlTypeName.NULL) {
            return (a, b) -> 0; // never called: a NULL operand is null
        }
        if (Numbers.isNumeric(l) && Numbers.isNumeric(r)) {
            return numeric(l, r);
        }
        if (isText(l) && isText(r)) {
            return l == SqlTypeName.CHAR || r == SqlTypeName.CHAR ? Comparisons::comparePadded : Comparisons::compareText;
        }
        if (l == r) {
            return switch (l) {
                case BOOLEAN -> (a, b) -> Boolean.compare((Boolean) a, (Boolean) b);
                case DATE, TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> Comparisons::compareComparable; // instants at UTC
                case BINARY, VARBINARY -> (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
                case UUID -> (a, b) -> Rows.compareUuids((java.util.UUID) a, (java.util.UUID) b);
                default -> intervals(left, right);
            };
        }
        if (l == SqlTypeName.DATE && r == SqlTypeName.TIMESTAMP) {
            return (a, b) -> ((LocalDate) a).atStartOfDay().compareTo((LocalDateTime) b);
        }
        if (l == SqlTypeName.TIMESTAMP && r == SqlTypeName.DATE) {
            return (a, b) -> ((LocalDateTime) a).compareTo(((LocalDate) b).atStartOfDay());
        }
        if (l == SqlTypeName.BINARY && r == SqlTypeName.VARBINARY || l == SqlTypeName.VARBINARY && r == SqlTypeName.BINARY) {
            return (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
        }
        return intervals(left, right);
    }

    private static Comparator<Object> intervals(RelDataType left, RelDataType right) {
        SqlTypeName l = left.getSqlTypeName();
        SqlTypeName r = right.getSqlTypeName();
        if (SqlTypeName.YEAR_INTERVAL_TYPES.contains(l) && SqlTypeName.YEAR_INTERVAL_TYPES.contains(r)
                || SqlTypeName.DAY_INTERVAL_TYPES.contains(l) && SqlTypeName.DAY_INTERVAL_TYPES.contains(r)) {
            return (a, b) -> Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        throw ExecErrors.unsupported("comparing " + left.getFullTypeString() + " with " + right.getFullTypeString());
    }

    private static Comparator<Object> numeric(SqlTypeName l, SqlTypeName r) {
        if (l == SqlTypeName.INTEGER && r == SqlTypeName.INTEGER) {
            return (a, b) -> Integer.compare((Integer) a, (Integer) b);
        }
        if (IntegerType.is(l) && IntegerType.is(r)) {
            return (a, b) -> Long.compare(((Number) a).longValue(), ((Number) b).longValue());
        }
        if (Numbers.isApprox(l) || Numbers.isApprox(r)) {
            return (a, b) -> compareDoubles(((Number) a).doubleValue(), ((Number) b).doubleValue());
        }
        if (l == SqlTypeName.DECIMAL && r == SqlTypeName.DECIMAL) {
            return (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b);
        }
        Function<Object, BigDecimal> x = Numbers.toDecimal(l);
        Function<Object, BigDecimal> y = Numbers.toDecimal(r);
        return (a, b) -> x.apply(a).compareTo(y.apply(b));
    }

    private static boolean isText(SqlTypeName t) {
        return t == SqlTypeName.CHAR || t == SqlTypeName.VARCHAR;
    }

    /** SQL order of doubles: -0.0 equals 0.0; NaN equals itself and is above every other value. */
    static int compareDoubles(double a, double b) {
        return a == b ? 0 : Double.compare(a, b);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareComparable(Object a, Object b) {
        return ((Comparable) a).compareTo(b);
    }

    /** Code point order (binary collation), which UTF-16 {@code compareTo} is not beyond the BMP. */
    static int compareText(Object a, Object b) {
        String x = (String) a;
        String y = (String) b;
        return compare(x, x.length(), y, y.length());
    }

    /** Code point order ignoring trailing spaces. */
    static int comparePadded(Object a, Object b) {
        String x = (String) a;
        String y = (String) b;
        return compare(x, unpaddedLength(x), y, unpaddedLength(y));
    }

    private static int unpaddedLength(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end;
    }

    private static int compare(String x, int xLength, String y, int yLength) {
        int n = Math.min(xLength, yLength);
        for (int i = 0; i < n; i++) {
            char c = x.charAt(i);
            char d = y.charAt(i);
            if (c != d) {
                return codePointOrder(c) - codePointOrder(d);
            }
        }
        return xLength - yLength;
    }

    /** Moves surrogates above the rest of the BMP so that UTF-16 units sort as code points do. */
    private static int codePointOrder(char c) {
        if (c >= 0xE000) {
            return c - 0x800;
        }
        return c >= 0xD800 ? c + 0x2000 : c;
    }
}
