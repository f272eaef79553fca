package io.tell.bench.tpcc;

import java.nio.file.Path;

/**
 * How to run TPC-C, validated once.
 *
 * @param target the database
 * @param warehouses the scale factor W (with {@code load} false: taken from the database)
 * @param terminals emulated terminals, one thread and connection each
 * @param durationSeconds the measured interval
 * @param warmupSeconds run before the measured interval, not counted
 * @param loadThreads threads (and connections) of the loader
 * @param load drop, create and load the tables; false keeps the data there is
 * @param specWaits keying and think times of §5.2.5 instead of none
 * @param selectForUpdate read stock rows with SELECT … FOR UPDATE before updating them
 * @param out where the JSON and charts go; null for none
 * @param seed the seed of the loader's and terminals' random numbers and of the C constants
 * @param batchSize rows per insert batch (and commit) while loading
 * @param isolation the terminals' {@link java.sql.Connection} isolation level; 0 leaves the driver's default
 * @param scale the cardinalities: {@link TpccScale#SPEC}, or reduced for tests only
 */
public record TpccOptions(JdbcTarget target, int warehouses, int terminals, double durationSeconds, double warmupSeconds,
                          int loadThreads, boolean load, boolean specWaits, boolean selectForUpdate, Path out, long seed,
                          int batchSize, int isolation, TpccScale scale) {

    public TpccOptions {
        if (warehouses < 1 || terminals < 1 || loadThreads < 1 || batchSize < 1) {
            throw new IllegalArgumentException("warehouses, terminals, load threads and batch size must be at least 1");
        }
        if (!(durationSeconds > 0) || warmupSeconds < 0) {
            throw new IllegalArgumentException("duration must be positive and warm-up not negative");
        }
        if (scale == null) {
            throw new IllegalArgumentException("scale is required (TpccScale.SPEC)");
        }
    }

    /** One warehouse, 4 terminals, 60 s after 10 s warm-up, loading with as many threads as cores. */
    public static TpccOptions defaults(JdbcTarget target) {
        return new TpccOptions(target, 1, 4, 60, 10, Runtime.getRuntime().availableProcessors(), true, false, false,
                null, 42, 1_000, 0, TpccScale.SPEC);
    }

    public TpccOptions withRun(int terminals, double durationSeconds, double warmupSeconds) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }

    public TpccOptions withLoad(boolean load) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }

    public TpccOptions withWarehouses(int warehouses) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }

    public TpccOptions withTarget(JdbcTarget target) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }

    public TpccOptions withOut(Path out) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }

    /** For tests only: a reduced population (see {@link TpccScale#reducedBy}); not a TPC-C result. */
    public TpccOptions withScale(TpccScale scale) {
        return new TpccOptions(target, warehouses, terminals, durationSeconds, warmupSeconds, loadThreads, load, specWaits,
                selectForUpdate, out, seed, batchSize, isolation, scale);
    }
}
