package io.tell.bench.tpcc;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.List;
import java.util.Map;

/**
 * A whole TPC-C benchmark over JDBC: load (unless told to keep the data), run the terminals,
 * on Tell count the round trips of each transaction type alone, check consistency, print the
 * table and write JSON and charts. One connection stays open from
 * start to end, so an in-memory database (H2 {@code mem:}) lives through the run.
 */
public final class TpccBenchmark {
    private final TpccOptions options;
    private final PrintStream out;
    private final PrintStream progress;
    private Runnable afterRun = () -> { };
    private Timestamp loadTime;

    /** Results go to {@code out}; progress (load bar, run ticks, first errors) to {@code progress}, which may be null. */
    public TpccBenchmark(TpccOptions options, PrintStream out, PrintStream progress) {
        this.options = options;
        this.out = out;
        this.progress = progress;
    }

    /**
     * Calls {@code hook} as soon as the terminals have stopped, before anything else is measured
     * or checked (how an HTAP run stops its analytical streams). Returns this benchmark.
     */
    public TpccBenchmark afterRun(Runnable hook) {
        this.afterRun = hook;
        return this;
    }

    /** Stamps the population with {@code time} instead of the clock ({@link TpccLoader#atLoadTime}). Returns this benchmark. */
    public TpccBenchmark loadTime(Timestamp time) {
        this.loadTime = time;
        return this;
    }

    public TpccResult run() throws SQLException, InterruptedException, IOException {
        try (Connection admin = options.target().connect()) {
            int warehouses = options.warehouses();
            if (options.load()) {
                TpccLoader loader = new TpccLoader(options.target(), warehouses, options.loadThreads(), options.seed(),
                        options.batchSize(), options.scale());
                if (loadTime != null) {
                    loader = loader.atLoadTime(loadTime);
                }
                TpccLoader.Result loaded = loader.load(admin, progress, progress != null && LoadProgress.stderrIsTerminal());
                say("tpcc: loaded %d warehouse%s, %,d rows in %.1f s (%,.0f rows/s, %d threads)%n", warehouses,
                        warehouses == 1 ? "" : "s", loaded.rows(), loaded.seconds(), loaded.rows() / loaded.seconds(),
                        options.loadThreads());
            } else {
                warehouses = countWarehouses(admin);
                say("tpcc: using the %d warehouse%s in the database (no load)%n", warehouses, warehouses == 1 ? "" : "s");
            }
            // End admin's transaction: an open snapshot would hold back the garbage collection of
            // every database (Tell's lav, PostgreSQL's vacuum horizon) for the whole run.
            admin.commit();
            TpccOptions run = options.withWarehouses(warehouses);
            say("tpcc: %d terminals, %.0f s warm-up + %.0f s measured%s%n", run.terminals(), run.warmupSeconds(),
                    run.durationSeconds(), run.specWaits() ? ", with keying and think times" : ", no think time");
            TpccRun.Recorded recorded;
            try {
                recorded = new TpccRun(run, progress).run();
            } finally {
                afterRun.run();
            }
            Map<TransactionType, RoundTrips> alone = Map.of();
            if (recorded.roundTrips() != null) {
                say("tpcc: counting round trips of each transaction type alone (1 connection)%n");
                try {
                    alone = new RoundTripCalibration(run).run();
                } catch (SQLException e) {
                    // The run's results stand without the per-type round trips; say why they are missing.
                    say("tpcc: counting round trips by type failed, left out: %s [SQLState %s]%n", e.getMessage(), e.getSQLState());
                }
            }
            List<ConsistencyCheck.Result> checks = ConsistencyCheck.run(admin);
            TpccResult result = TpccResult.of(run, warehouses, recorded, checks, alone);
            ResultTable.print(result, out);
            if (options.out() != null) {
                Files.createDirectories(options.out());
                ResultJson.write(result, options.out().resolve("result.json"));
                ResultCharts.write(result, options.out());
                out.println();
                out.println("results: " + options.out().resolve("result.json") + ", throughput.png, latency.png");
            }
            return result;
        }
    }

    private int countWarehouses(Connection admin) throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM WAREHOUSE")) {
            rs.next();
            int n = rs.getInt(1);
            admin.commit();
            if (n < 1) {
                throw new SQLException("TPC-C: WAREHOUSE is empty; load first (drop --no-load)");
            }
            return n;
        }
    }

    private void say(String format, Object... args) {
        if (progress != null) {
            progress.printf(format, args);
        }
    }
}
