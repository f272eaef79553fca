package io.tell.bench.htap;

import io.tell.bench.ch.ChLoader;
import io.tell.bench.ch.ChQueries;
import io.tell.bench.ch.ChQuery;
import io.tell.bench.ch.ChSchema;
import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccBenchmark;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTAP benchmark: TPC-C on the OLTP side alone, then again while analytical streams run the
 * 22 CH-benCHmark queries in a loop on the OLAP side (another URL: an OLAP pool of PN servers,
 * another processing node on the same store; by default the same one), on the same live data.
 * Loads TPC-C (its population stamped {@link ChQueries#POPULATION_TIME}, so that the queries'
 * date windows find it) and the CH-benCHmark tables first. Each TPC-C run writes its own result
 * files under {@code out/alone} and {@code out/mixed}.
 */
public final class HtapRun {
    /**
     * @param tpcc    the OLTP side: database, warehouses, terminals, durations, seed, output directory
     * @param olap    where the analytical streams run
     * @param streams analytical streams at once, each on its own connection
     * @param queries the CH-benCHmark queries to run (numbers 1-22), in this order
     * @param queryTimeoutSeconds how long one query may run before it is cancelled
     */
    public record Options(TpccOptions tpcc, JdbcTarget olap, int streams, List<Integer> queries, int queryTimeoutSeconds) {
        public Options {
            if (streams < 1 || queryTimeoutSeconds < 1) {
                throw new IllegalArgumentException("at least one analytical stream and a timeout of a second or more");
            }
            if (queries.isEmpty()) {
                throw new IllegalArgumentException("no queries to run");
            }
            queries.forEach(ChQueries::get); // throws for a number that is not a query
            queries = List.copyOf(queries);
        }

        /** All 22 queries, a minute each at most. */
        public Options(TpccOptions tpcc, JdbcTarget olap, int streams) {
            this(tpcc, olap, streams, ChQueries.all().stream().map(ChQuery::number).toList(), 60);
        }
    }

    private final Options options;
    private final PrintStream out;
    private final PrintStream progress;

    /** Results go to {@code out}; progress (load bar, ticks) to {@code progress}, which may be null. */
    public HtapRun(Options options, PrintStream out, PrintStream progress) {
        this.options = options;
        this.out = out;
        this.progress = progress;
    }

    public HtapResult run() throws SQLException, InterruptedException, IOException {
        TpccOptions tpcc = options.tpcc();
        Path dir = tpcc.out();
        // One connection open from start to end keeps an in-memory database alive between the runs.
        try (Connection admin = tpcc.target().connect()) {
            say("htap: TPC-C alone on %s%n", tpcc.target().url());
            TpccResult alone = new TpccBenchmark(tpcc.withLoad(true).withOut(sub(dir, "alone")), out, progress)
                    .loadTime(ChQueries.POPULATION_TIME).run();
            say("htap: loading the CH-benCHmark tables (REGION, NATION, SUPPLIER)%n");
            ChSchema.recreateTables(admin);
            new ChLoader(tpcc.seed(), tpcc.batchSize()).load(admin);
            admin.commit();

            List<ChQuery> queries = options.queries().stream().map(ChQueries::get).toList();
            Map<Integer, QueryStats> stats = new LinkedHashMap<>();
            queries.forEach(q -> stats.put(q.number(), new QueryStats()));
            List<AnalyticStream> streams = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < options.streams(); i++) {
                AnalyticStream s = new AnalyticStream(options.olap(), queries, stats, i * queries.size() / options.streams(),
                        options.queryTimeoutSeconds());
                streams.add(s);
                threads.add(Thread.ofPlatform().name("htap-olap-" + i).start(s));
            }
            say("htap: TPC-C again, with %d analytical stream%s on %s%n", options.streams(),
                    options.streams() == 1 ? "" : "s", options.olap().url());
            long started = System.nanoTime();
            double[] analyticSeconds = new double[1];
            TpccResult mixed = new TpccBenchmark(tpcc.withLoad(false).withOut(sub(dir, "mixed")), out, progress)
                    .afterRun(() -> analyticSeconds[0] = stop(streams, threads, started)).run();
            for (AnalyticStream s : streams) {
                if (s.broken() != null) {
                    throw s.broken();
                }
            }
            List<HtapResult.Query> summaries = new ArrayList<>();
            for (ChQuery q : queries) {
                summaries.add(stats.get(q.number()).summary(q.number(), q.title()));
            }
            return new HtapResult(alone, mixed, options.olap().url(), options.streams(), analyticSeconds[0], summaries);
        }
    }

    /** Stops the streams (each finishes the query it is running) and returns how long they ran, in seconds. */
    private static double stop(List<AnalyticStream> streams, List<Thread> threads, long startedNanos) {
        streams.forEach(AnalyticStream::stop);
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    private static Path sub(Path dir, String name) {
        return dir == null ? null : dir.resolve(name);
    }

    private void say(String format, Object... args) {
        if (progress != null) {
            progress.printf(format, args);
        }
    }
}
