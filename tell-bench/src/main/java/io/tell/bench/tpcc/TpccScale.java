package io.tell.bench.tpcc;

/** The fixed cardinalities of TPC-C (§1.2, §4.3.3.1), per warehouse unless named otherwise. */
public final class TpccScale {
    /** Items in ITEM, for all warehouses. */
    public static final int ITEMS = 100_000;
    public static final int STOCK_PER_WAREHOUSE = ITEMS;
    public static final int DISTRICTS_PER_WAREHOUSE = 10;
    public static final int CUSTOMERS_PER_DISTRICT = 3_000;
    public static final int ORDERS_PER_DISTRICT = 3_000;
    /** The initial orders from this id on are undelivered and have a NEW_ORDER row. */
    public static final int FIRST_NEW_ORDER = 2_101;
    public static final int NEW_ORDERS_PER_DISTRICT = ORDERS_PER_DISTRICT - FIRST_NEW_ORDER + 1;
    /** Order lines per order: uniform in [MIN_OL, MAX_OL]. */
    public static final int MIN_OL = 5;
    public static final int MAX_OL = 15;

    private TpccScale() {
    }

    /** About how many rows a load of {@code warehouses} writes (order lines counted at their mean, 10 per order). */
    public static long expectedRows(int warehouses) {
        long perDistrict = 1 + CUSTOMERS_PER_DISTRICT * 2L + ORDERS_PER_DISTRICT * 11L + NEW_ORDERS_PER_DISTRICT;
        return ITEMS + warehouses * (1L + STOCK_PER_WAREHOUSE + DISTRICTS_PER_WAREHOUSE * perDistrict);
    }
}
