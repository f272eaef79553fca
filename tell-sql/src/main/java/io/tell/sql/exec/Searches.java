package io.tell.sql.exec;

import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.Sarg;

/**
 * {@code SEARCH(x, Sarg)}, Calcite's form of IN lists, BETWEEN and range unions, evaluated
 * without expanding it: the Sarg's points and ranges are converted to executor values once, a
 * point list of hashable values becomes a hash set, other ranges are binary-searched. Also a
 * BETWEEN call, should a plan hold one (the converter expands it; IN cannot be a plain call).
 */
final class Searches {
    /** Types whose values are equal exactly when {@code equals} says so, and hash alike. */
    private static final Set<SqlTypeName> HASHABLE = Set.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT,
            SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.VARCHAR, SqlTypeName.BOOLEAN,
            SqlTypeName.DATE, SqlTypeName.TIME, SqlTypeName.TIMESTAMP);

    private Searches() {
    }

    /** One range of a Sarg; a null bound is unbounded. */
    private record Bounds(Object lower, boolean lowerClosed, Object upper, boolean upperClosed) {
    }

    static Expr search(RexCall call, Expr operand) {
        RelDataType valueType = call.getOperands().get(0).getType();
        RexLiteral literal = (RexLiteral) call.getOperands().get(1);
        RelDataType sargType = literal.getType();
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        Boolean whenNull = switch (sarg.nullAs) {
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case UNKNOWN -> null;
        };
        List<Bounds> ranges = new ArrayList<>();
        for (Range<?> r : sarg.rangeSet.asRanges()) {
            ranges.add(new Bounds(
                    r.hasLowerBound() ? Literals.convert(r.lowerEndpoint(), sargType) : null,
                    r.hasLowerBound() && r.lowerBoundType() == BoundType.CLOSED,
                    r.hasUpperBound() ? Literals.convert(r.upperEndpoint(), sargType) : null,
                    r.hasUpperBound() && r.upperBoundType() == BoundType.CLOSED));
        }
        if (sarg.isPoints() && valueType.getSqlTypeName() == sargType.getSqlTypeName()
                && HASHABLE.contains(valueType.getSqlTypeName())) {
            Set<Object> points = new HashSet<>();
            ranges.forEach(r -> points.add(r.lower()));
            return (row, ctx) -> {
                Object v = operand.eval(row, ctx);
                return v == null ? whenNull : (Boolean) points.contains(v);
            };
        }
        Comparator<Object> cmp = Comparisons.comparator(valueType, sargType);
        Bounds[] sorted = ranges.toArray(Bounds[]::new);
        return (row, ctx) -> {
            Object v = operand.eval(row, ctx);
            return v == null ? whenNull : (Boolean) contains(sorted, v, cmp);
        };
    }

    /** Whether one of the disjoint, ascending {@code ranges} holds {@code v}. */
    private static boolean contains(Bounds[] ranges, Object v, Comparator<Object> cmp) {
        // The last range whose lower bound admits v is the only candidate.
        int lo = 0;
        int hi = ranges.length - 1;
        int candidate = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            Bounds r = ranges[mid];
            int c = r.lower() == null ? -1 : cmp.compare(v, r.lower());
            if (r.lower() == null || c > 0 || c == 0 && r.lowerClosed()) {
                candidate = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (candidate < 0) {
            return false;
        }
        Bounds r = ranges[candidate];
        if (r.upper() == null) {
            return true;
        }
        int c = cmp.compare(v, r.upper());
        return c < 0 || c == 0 && r.upperClosed();
    }

    /** {@code x BETWEEN lo AND hi} as {@code x >= lo AND x <= hi}; SYMMETRIC also tries the bounds swapped. */
    static Expr between(RexCall call, List<Expr> operands) {
        List<RexNode> nodes = call.getOperands();
        Comparator<Object> low = Comparisons.comparator(nodes.get(0).getType(), nodes.get(1).getType());
        Comparator<Object> high = Comparisons.comparator(nodes.get(0).getType(), nodes.get(2).getType());
        boolean symmetric = call.getOperator() instanceof SqlBetweenOperator b
                && b.flag == SqlBetweenOperator.Flag.SYMMETRIC;
        Expr value = operands.get(0);
        Expr lower = operands.get(1);
        Expr upper = operands.get(2);
        return (row, ctx) -> {
            Object v = value.eval(row, ctx);
            Object a = lower.eval(row, ctx);
            Object b = upper.eval(row, ctx);
            Boolean result = within(v, a, b, low, high);
            if (symmetric && !Boolean.TRUE.equals(result)) {
                Boolean swapped = within(v, b, a, high, low);
                result = Boolean.TRUE.equals(swapped) ? Boolean.TRUE : result == null || swapped == null ? null : Boolean.FALSE;
            }
            return result;
        };
    }

    private static Boolean within(Object v, Object a, Object b, Comparator<Object> low, Comparator<Object> high) {
        Boolean above = v == null || a == null ? null : low.compare(v, a) >= 0;
        Boolean below = v == null || b == null ? null : high.compare(v, b) <= 0;
        if (Boolean.FALSE.equals(above) || Boolean.FALSE.equals(below)) {
            return false;
        }
        return above == null || below == null ? null : Boolean.TRUE;
    }
}
