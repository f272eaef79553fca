package io.tell.bench.tpcc;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loads the initial TPC-C database (§4.3): recreates the tables, writes the population in
 * slices (item and stock ranges, one warehouse's districts, each district's customers and
 * orders) spread over {@code threads} threads with a connection each, batched inserts committed
 * every batch, then creates the secondary indexes and, where the database has one, runs ANALYZE. Slice {@code k} draws from
 * {@code seed + k}, so the same seed yields the same data (but for timestamps, unless
 * {@link #atLoadTime} fixes them).
 */
public final class TpccLoader {
    private static final int SLICE = 10_000;

    /** How a load went. */
    public record Result(long rows, double seconds) {
    }

    private final JdbcTarget target;
    private final int warehouses;
    private final int threads;
    private final long seed;
    private final int batchSize;
    private final TpccScale scale;
    private final Timestamp loadTime;

    /** A loader of the specification's population. */
    public TpccLoader(JdbcTarget target, int warehouses, int threads, long seed, int batchSize) {
        this(target, warehouses, threads, seed, batchSize, TpccScale.SPEC);
    }

    public TpccLoader(JdbcTarget target, int warehouses, int threads, long seed, int batchSize, TpccScale scale) {
        this(target, warehouses, threads, seed, batchSize, scale, null);
    }

    private TpccLoader(JdbcTarget target, int warehouses, int threads, long seed, int batchSize, TpccScale scale,
            Timestamp loadTime) {
        this.loadTime = loadTime;
        this.scale = scale;
        this.target = target;
        this.warehouses = warehouses;
        this.threads = threads;
        this.seed = seed;
        this.batchSize = batchSize;
    }

    /**
     * This loader, but writing {@code time} wherever the population takes the load's current
     * time (O_ENTRY_D, OL_DELIVERY_D, C_SINCE, H_DATE) instead of the clock: with the same seed,
     * two loads then write identical data, which lets a test compare query results across databases.
     */
    public TpccLoader atLoadTime(Timestamp time) {
        return new TpccLoader(target, warehouses, threads, seed, batchSize, scale, time);
    }

    /** One unit of work of the load, run on some loader thread. */
    @FunctionalInterface
    private interface Slice {
        void write(PopulationWriter writer) throws SQLException;
    }

    /** Loads everything; {@code progressOut} (may be null) gets the progress bar, redrawn in place on a {@code terminal}. */
    public Result load(Connection admin, PrintStream progressOut, boolean terminal) throws SQLException, InterruptedException {
        TpccSchema.recreateTables(admin);
        List<Slice> slices = slices();
        Timestamp now = loadTime != null ? loadTime : new Timestamp(System.currentTimeMillis());
        NuRandConstants c = NuRandConstants.forLoad(seed);
        Queue<Integer> todo = new ConcurrentLinkedQueue<>();
        for (int k = 0; k < slices.size(); k++) {
            todo.add(k);
        }
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (LoadProgress progress = new LoadProgress(scale.expectedRows(warehouses), progressOut, terminal)) {
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < Math.min(threads, slices.size()); t++) {
                workers.add(Thread.ofPlatform().name("tpcc-loader-" + t).start(() -> {
                    try (Connection connection = target.connect()) {
                        Integer k;
                        while (failure.get() == null && (k = todo.poll()) != null) {
                            TpccRandom random = new TpccRandom(seed + k, c, scale);
                            slices.get(k).write(new PopulationWriter(connection, random, batchSize, progress, now));
                            connection.commit();
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread w : workers) {
                w.join();
            }
            if (failure.get() != null) {
                Throwable e = failure.get();
                if (e instanceof SQLException s) {
                    throw s;
                }
                throw new IllegalStateException("TPC-C load failed: " + e, e);
            }
            TpccSchema.createIndexes(admin);
            TpccSchema.analyze(admin);
            return new Result(progress.rows(), progress.seconds());
        }
    }

    /** The slices, the biggest first so the threads finish together. */
    private List<Slice> slices() {
        List<Slice> slices = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                int wid = w;
                int did = d;
                slices.add(writer -> writer.orders(wid, did));
            }
        }
        for (int w = 1; w <= warehouses; w++) {
            for (int d = 1; d <= TpccScale.DISTRICTS_PER_WAREHOUSE; d++) {
                int wid = w;
                int did = d;
                slices.add(writer -> writer.customers(wid, did));
            }
            for (int from = 1; from <= scale.stockPerWarehouse(); from += SLICE) {
                int wid = w;
                int f = from;
                slices.add(writer -> writer.stock(wid, f, Math.min(f + SLICE - 1, scale.stockPerWarehouse())));
            }
            int wid = w;
            slices.add(writer -> writer.warehouse(wid));
        }
        for (int from = 1; from <= scale.items(); from += SLICE) {
            int f = from;
            slices.add(writer -> writer.items(f, Math.min(f + SLICE - 1, scale.items())));
        }
        return slices;
    }
}
