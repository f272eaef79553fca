package io.tell.bench.tpcc;

/**
 * The cardinalities of TPC-C (§1.2, §4.3.3.1), per warehouse unless named otherwise.
 * {@link #SPEC} is the specification's and the only one a benchmark uses; {@link #reducedBy}
 * shrinks items and customers (and with them stock, orders and new orders) so that tests can
 * load a warehouse over a slow store in seconds. A run on a reduced scale is not a TPC-C result,
 * and the result table says so.
 *
 * @param items rows in ITEM (for all warehouses), and stock rows per warehouse
 * @param customersPerDistrict customers per district, also its initial orders (one per customer)
 */
public record TpccScale(int items, int customersPerDistrict) {
    public static final TpccScale SPEC = new TpccScale(100_000, 3_000);
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    /** Order lines per order: uniform in [MIN_OL, MAX_OL]. */
    public static final int MIN_OL = 5;
    public static final int MAX_OL = 15;
    /** The last names made of three syllables (§4.3.2.3); the first customers of a district take one each. */
    public static final int LAST_NAMES = 1_000;

    public TpccScale {
        if (items < 10 || customersPerDistrict < 10 || customersPerDistrict % 10 != 0) {
            throw new IllegalArgumentException("TPC-C scale: at least 10 items, and customers per district a multiple of 10: "
                    + items + " items, " + customersPerDistrict + " customers");
        }
    }

    /** For tests only: the specification's items and customers divided by {@code factor}. */
    public static TpccScale reducedBy(int factor) {
        if (factor < 1) {
            throw new IllegalArgumentException("scale factor must be at least 1: " + factor);
        }
        return new TpccScale(SPEC.items / factor, SPEC.customersPerDistrict / factor);
    }

    public boolean isSpec() {
        return equals(SPEC);
    }

    public int stockPerWarehouse() {
        return items;
    }

    public int ordersPerDistrict() {
        return customersPerDistrict;
    }

    /** The initial orders from this id on (the last 30 %: 2,101 of 3,000) are undelivered and have a NEW_ORDER row. */
    public int firstNewOrder() {
        return ordersPerDistrict() * 7 / 10 + 1;
    }

    public int newOrdersPerDistrict() {
        return ordersPerDistrict() - firstNewOrder() + 1;
    }

    /** The last names in use: all 1,000, or one per customer when a district has fewer. */
    public int lastNames() {
        return Math.min(LAST_NAMES, customersPerDistrict);
    }

    /** The item id no item has: New-Order's intended rollback (§2.4.1.4). */
    public int unusedItem() {
        return items + 1;
    }

    /** About how many rows a load of {@code warehouses} writes (order lines counted at their mean, 10 per order). */
    public long expectedRows(int warehouses) {
        long perDistrict = 1 + customersPerDistrict * 2L + ordersPerDistrict() * 11L + newOrdersPerDistrict();
        return items + warehouses * (1L + stockPerWarehouse() + DISTRICTS_PER_WAREHOUSE * perDistrict);
    }
}
