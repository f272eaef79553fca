package io.tell.sql.exec;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Comparing and hashing values across their Java classes, as SQL compares them. */
public final class Rows {
    private Rows() {
    }

    /** Compares two non-null values of comparable SQL types: numbers by value, strings ignoring trailing spaces. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            if (isIntegral(x) && isIntegral(y)) {
                return Long.compare(x.longValue(), y.longValue());
            }
            if (x instanceof BigDecimal || y instanceof BigDecimal || isIntegral(x) || isIntegral(y)) {
                return decimal(x).compareTo(decimal(y));
            }
            return Double.compare(x.doubleValue(), y.doubleValue());
        }
        if (a instanceof String x && b instanceof String y) {
            return stripTrailing(x).compareTo(stripTrailing(y));
        }
        if (a instanceof byte[] x && b instanceof byte[] y) {
            return Arrays.compareUnsigned(x, y);
        }
        if (a instanceof UUID x && b instanceof UUID y) {
            return compareUuids(x, y);
        }
        return ((Comparable) a).compareTo(b);
    }

    /**
     * Rows in the order of {@code fields} (an ORDER BY): each field ascending or descending, NULLs last ascending and
     * first descending unless the field says; null for no fields.
     */
    public static java.util.Comparator<Object[]> order(List<org.apache.calcite.rel.RelFieldCollation> fields) {
        java.util.Comparator<Object[]> cmp = null;
        for (org.apache.calcite.rel.RelFieldCollation f : fields) {
            int i = f.getFieldIndex();
            boolean desc = f.getDirection().isDescending();
            boolean nullsFirst = f.nullDirection == org.apache.calcite.rel.RelFieldCollation.NullDirection.FIRST
                    || f.nullDirection == org.apache.calcite.rel.RelFieldCollation.NullDirection.UNSPECIFIED && desc;
            java.util.Comparator<Object[]> one = (a, b) -> {
                Object x = a[i];
                Object y = b[i];
                if (x == null || y == null) {
                    if (x == y) {
                        return 0;
                    }
                    return (x == null) == nullsFirst ? -1 : 1;
                }
                int c = compare(x, y);
                return desc ? -c : c;
            };
            cmp = cmp == null ? one : cmp.thenComparing(one);
        }
        return cmp;
    }

    /** A value usable as a hash key so that values equal by {@link #compare} are equal keys. */
    public static Object key(Object v) {
        if (v instanceof Number n) {
            if (isIntegral(n)) {
                return n.longValue();
            }
            BigDecimal d = decimal(n).stripTrailingZeros();
            return d.scale() <= 0 && d.precision() - d.scale() < 19 ? (Object) d.longValueExact() : d;
        }
        if (v instanceof String s) {
            return stripTrailing(s);
        }
        if (v instanceof byte[] b) {
            return ByteBuffer.wrap(b); // equal and hashed by content
        }
        return v;
    }

    /** PostgreSQL's order of uuids: their 16 bytes, unsigned (Java's {@code UUID.compareTo} compares signed halves). */
    public static int compareUuids(UUID a, UUID b) {
        int c = Long.compareUnsigned(a.getMostSignificantBits(), b.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(a.getLeastSignificantBits(), b.getLeastSignificantBits());
    }

    /** The hash key of columns {@code columns} of {@code row}; null when any is NULL (NULL matches nothing). */
    public static List<Object> key(Object[] row, int[] columns) {
        List<Object> k = new ArrayList<>(columns.length);
        for (int c : columns) {
            if (row[c] == null) {
                return null;
            }
            k.add(key(row[c]));
        }
        return k;
    }

    /**
     * The values of {@code row} at {@code columns}, as a unique or foreign key holds them; null
     * when any is NULL (such a key conflicts with and references nothing).
     */
    public static Object[] keyValues(Object[] row, int[] columns) {
        Object[] out = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = row[columns[i]];
            if (out[i] == null) {
                return null;
            }
        }
        return out;
    }

    /** The hash key of a whole row; NULLs are equal to each other here (DISTINCT, GROUP BY, UNION). */
    public static List<Object> groupKey(Object[] row, int[] columns) {
        List<Object> k = new ArrayList<>(columns.length);
        for (int c : columns) {
            k.add(row[c] == null ? null : key(row[c]));
        }
        return k;
    }

    public static Object[] concat(Object[] left, Object[] right) {
        Object[] out = new Object[left.length + right.length];
        System.arraycopy(left, 0, out, 0, left.length);
        System.arraycopy(right, 0, out, left.length, right.length);
        return out;
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte;
    }

    private static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        return isIntegral(n) ? BigDecimal.valueOf(n.longValue()) : BigDecimal.valueOf(n.doubleValue());
    }

    private static String stripTrailing(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return end == s.length() ? s : s.substring(0, end);
    }
}
