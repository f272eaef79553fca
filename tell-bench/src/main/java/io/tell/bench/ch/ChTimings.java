package io.tell.bench.ch;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccLoader;
import io.tell.bench.tpcc.TpccScale;
import io.tell.bench.tpcc.TpccSchema;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The CH-benCHmark queries alone, each timed several times on a quiet database: TPC-C's tables
 * (1 warehouse, stamped {@link ChQueries#POPULATION_TIME}) and the CH tables are loaded, then
 * every query runs {@code repeat} times in a row, one after another, each in an auto-commit
 * statement cancelled after the timeout. The first run of each query is reported apart (plans
 * made and code compiled then); the median and the fastest are of the others. For query
 * latency without a concurrent load, which {@code tell bench htap} measures beside TPC-C.
 */
public final class ChTimings {
    /**
     * Options: where, which queries, how often, how long at most, the load's seed and scale
     * ({@link TpccScale#SPEC} for a benchmark), and whether to print each query's plan first.
     */
    public record Options(JdbcTarget target, List<Integer> queries, int repeat, int timeoutSeconds, long seed, TpccScale scale,
                          boolean explain) {
    }

    /** One query's times in milliseconds, in run order; a timed-out run is absent. */
    public record Timing(ChQuery query, List<Double> millis, int timeouts, int rows) {
        public double first() {
            return millis.isEmpty() ? Double.NaN : millis.get(0);
        }

        /** The median of the runs after the first (of the first alone when there is no other). */
        public double median() {
            List<Double> later = sortedLater();
            return later.isEmpty() ? first() : later.get(later.size() / 2);
        }

        public double fastest() {
            List<Double> later = sortedLater();
            return later.isEmpty() ? first() : later.get(0);
        }

        private List<Double> sortedLater() {
            List<Double> later = new ArrayList<>(millis.subList(Math.min(1, millis.size()), millis.size()));
            Collections.sort(later);
            return later;
        }
    }

    private ChTimings() {
    }

    /**
     * The plan of {@code q}, indented: Tell's {@code EXPLAIN PLAN FOR} (Calcite's form, also through
     * a PN server), else the database's own {@code EXPLAIN} (PostgreSQL, H2).
     */
    static String plan(Connection c, ChQuery q) throws SQLException {
        try {
            return planLines(c, "EXPLAIN PLAN FOR " + q.sql());
        } catch (SQLException e) {
            if (!c.getAutoCommit()) {
                c.rollback(); // PostgreSQL refuses every statement of a transaction after a failed one
            }
            return planLines(c, "EXPLAIN " + q.sql());
        }
    }

    private static String planLines(Connection c, String explain) throws SQLException {
        StringBuilder lines = new StringBuilder();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(explain)) {
            while (rs.next()) {
                rs.getString(1).lines().forEach(l -> lines.append("      ").append(l).append('\n'));
            }
        }
        return lines.toString();
    }

    public static List<Timing> run(Options options, PrintStream out) throws SQLException, InterruptedException {
        List<Timing> timings = new ArrayList<>();
        try (Connection c = options.target().connect()) {
            TpccSchema.recreateTables(c);
            new TpccLoader(options.target(), 1, 2, options.seed(), 1_000, options.scale()).atLoadTime(ChQueries.POPULATION_TIME).load(c, null, false);
            ChSchema.recreateTables(c);
            new ChLoader(options.seed(), 1_000).load(c);
            if (!c.getAutoCommit()) {
                c.commit();
            }
            out.printf("ch: loaded 1 warehouse and the CH tables into %s; %d runs of each query%n", options.target().url(),
                    options.repeat());
            for (int number : options.queries()) {
                ChQuery q = ChQueries.get(number);
                if (options.explain()) {
                    out.printf("  Q%d plan:%n%s", q.number(), plan(c, q));
                }
                List<Double> millis = new ArrayList<>();
                int timeouts = 0;
                int rows = 0;
                for (int r = 0; r < options.repeat(); r++) {
                    long started = System.nanoTime();
                    try (Statement s = c.createStatement()) {
                        s.setQueryTimeout(options.timeoutSeconds());
                        rows = 0;
                        try (ResultSet rs = s.executeQuery(q.sql())) {
                            while (rs.next()) {
                                rows++;
                            }
                        }
                        millis.add((System.nanoTime() - started) / 1e6);
                    } catch (SQLException e) {
                        if (!(e instanceof SQLTimeoutException) && !"57014".equals(e.getSQLState())) { // 57014: PostgreSQL's cancel
                            throw e;
                        }
                        timeouts++;
                    }
                }
                Timing t = new Timing(q, millis, timeouts, rows);
                timings.add(t);
                out.printf("  Q%-3d %-36s first %10.1f  median %10.1f  fastest %10.1f ms  %6d rows%s%n", q.number(), q.title(),
                        t.first(), t.median(), t.fastest(), rows, timeouts == 0 ? "" : "  (" + timeouts + " timed out)");
            }
        }
        double medians = timings.stream().mapToDouble(Timing::median).filter(d -> !Double.isNaN(d)).sum();
        double fastest = timings.stream().mapToDouble(Timing::fastest).filter(d -> !Double.isNaN(d)).sum();
        out.printf("ch: sum of medians %.1f ms, of the fastest runs %.1f ms, over %d queries%n", medians, fastest, timings.size());
        return timings;
    }
}
