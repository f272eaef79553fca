package io.tell.bench.tpcc;

/**
 * Where a terminal works: its home warehouse and district (fixed for the run, §2.8.1.1 and
 * §5.2.2), the number of warehouses for remote picks, and whether selects that precede an
 * update of the same stock row say FOR UPDATE.
 */
record TerminalHome(int warehouse, int district, int warehouses, boolean selectForUpdate) {

    /** Terminal {@code index} (from 0): warehouses round-robin, then districts. */
    static TerminalHome of(int index, int warehouses, boolean selectForUpdate) {
        int w = index % warehouses + 1;
        int d = (index / warehouses) % TpccScale.DISTRICTS_PER_WAREHOUSE + 1;
        return new TerminalHome(w, d, warehouses, selectForUpdate);
    }
}
