package io.tell.sql;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many rows the planner takes each table to hold, per processing node (docs/sql-design.md
 * §3.2a). A table's size is sampled from its row tree ({@link TableStore#estimateRows}:
 * two or three store round trips) when a plan first needs it, and again when this node has inserted or
 * deleted about as many rows as the table was sampled with, or a minute has passed (other nodes
 * change tables too). The size the planner sees moves only when a sample differs from it by a
 * factor of {@value #REPLAN_FACTOR} or more; each such move starts a new {@link #epoch}, which is
 * part of the plan cache's key, so plans are made again for sizes an order of magnitude apart,
 * not for every row. Thread-safe.
 */
public final class TableSizes {
    private static final Logger LOG = LoggerFactory.getLogger(TableSizes.class);

    /** What a table is taken to hold where no sample can be had (a front end without a node, a failed read). */
    public static final double ASSUMED_ROWS = 1000;
    /** Sizes no plan tells apart: a table is taken to hold at least this many rows (about a leaf). */
    static final double MIN_ROWS = 10;
    static final double REPLAN_FACTOR = 4;
    private static final long MAX_AGE_NANOS = TimeUnit.MINUTES.toNanos(1);
    /** Local changes to a table, at least, before a resample: a tiny table's inserts do not resample it every time. */
    private static final long MIN_CHANGES = 10;

    /** Sizes for a front end without a processing node: every table {@link #ASSUMED_ROWS}. */
    public static final TableSizes ASSUMED = new TableSizes(null);

    private final Function<TableDef, TableStore> stores;
    private final Map<String, Size> sizes = new ConcurrentHashMap<>();
    private final AtomicLong epoch = new AtomicLong();
    private volatile long nextCheck = System.nanoTime();

    /** One table's size: what the planner sees, the last sample, when it was taken and this node's changes to the table by then. */
    private record Size(TableStore store, double planned, double sampled, long sampledAt, long changes) {
        /** As many rows inserted or deleted here since the sample as the table held then, or the sample too old. */
        boolean stale(long now) {
            return store.changes() - changes >= Math.max(MIN_CHANGES, sampled) || now - sampledAt > MAX_AGE_NANOS;
        }
    }

    TableSizes(Function<TableDef, TableStore> stores) {
        this.stores = stores;
    }

    /** The rows the planner takes {@code def} to hold: sampled now if it never was, or if it is stale. */
    public double rows(TableDef def) {
        if (stores == null) {
            return ASSUMED_ROWS;
        }
        Size size = sizes.get(def.rowDomain());
        if (size != null && !size.store().def().equals(def)) {
            // Altered since: the new definition's store counts its own changes; sampled now.
            TableStore store = stores.apply(def);
            size = sample(def, new Size(store, size.planned(), size.sampled(), System.nanoTime(), store.changes()));
        } else if (size == null || size.stale(System.nanoTime())) {
            size = sample(def, size);
        }
        return size == null ? ASSUMED_ROWS : size.planned();
    }

    /**
     * Changes whenever the size the planner sees of some table moved; plans of an older epoch are
     * made again. Resamples the tables that became stale first (checked at most every 10 ms).
     */
    public long epoch() {
        checkIfDue();
        return epoch.get();
    }

    /** Resamples the stale tables; at most every 10 ms, and otherwise at the cost of one clock read. */
    private void checkIfDue() {
        long now = System.nanoTime();
        if (stores == null || now < nextCheck) {
            return;
        }
        nextCheck = now + TimeUnit.MILLISECONDS.toNanos(10);
        for (Map.Entry<String, Size> e : sizes.entrySet()) {
            if (e.getValue().stale(now)) {
                sample(e.getValue().store().def(), e.getValue());
            }
        }
    }

    /**
     * A fresh sample of {@code def}'s rows, moving the planned size if it differs by {@link
     * #REPLAN_FACTOR}; null (the assumed size) when the read failed, and then the table is
     * forgotten until a plan needs it again (a dropped table's tree is gone). Rows of transactions still
     * open are not in the tree yet: a table loaded in one long transaction is seen at its next
     * sample after the commit (within a minute).
     */
    private Size sample(TableDef def, Size before) {
        TableStore store = before != null ? before.store() : stores.apply(def);
        long changes = store.changes();
        double rows;
        try {
            rows = Math.max(MIN_ROWS, store.estimateRows());
        } catch (RuntimeException e) {
            LOG.debug("cannot sample the size of {}: {}", def.name(), e.toString());
            sizes.remove(def.rowDomain());
            return null;
        }
        double planned = before == null ? rows : before.planned();
        boolean moved = before != null && (rows >= planned * REPLAN_FACTOR || rows * REPLAN_FACTOR <= planned);
        Size after = new Size(store, moved ? rows : planned, rows, System.nanoTime(), changes);
        sizes.put(def.rowDomain(), after);
        if (moved) {
            LOG.debug("{} now taken to hold {} rows (was {}): plans are made again", def.name(), rows, planned);
            epoch.incrementAndGet();
        }
        return after;
    }
}
