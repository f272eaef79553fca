package io.tell.bench.htap;

import io.tell.bench.ch.ChQuery;
import io.tell.bench.tpcc.JdbcTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One analytical client: runs the CH-benCHmark queries one after the other, over and over, each
 * in a read-only transaction of its own (so no snapshot is held between queries), until told to
 * stop, but not before it has tried every query once; the query running then is finished
 * first. A query that runs longer than the timeout is cancelled and counted as timed out. Streams start at different queries so that several do not run the same
 * query at the same time.
 */
final class AnalyticStream implements Runnable {
    private final JdbcTarget target;
    private final List<ChQuery> queries;
    private final Map<Integer, QueryStats> stats;
    private final int first;
    private final int timeoutSeconds;
    private final AtomicBoolean stop = new AtomicBoolean();
    private volatile SQLException broken;

    AnalyticStream(JdbcTarget target, List<ChQuery> queries, Map<Integer, QueryStats> stats, int first, int timeoutSeconds) {
        this.target = target;
        this.queries = queries;
        this.stats = stats;
        this.first = first;
        this.timeoutSeconds = timeoutSeconds;
    }

    void stop() {
        stop.set(true);
    }

    /** Why the stream could not run at all (no connection), or null. */
    SQLException broken() {
        return broken;
    }

    @Override
    public void run() {
        try (Connection c = target.connect()) {
            c.setReadOnly(true);
            for (int i = first; !stop.get() || i - first < queries.size(); i++) {
                ChQuery q = queries.get(i % queries.size());
                runOne(c, q);
            }
        } catch (SQLException e) {
            broken = e;
        }
    }

    private void runOne(Connection c, ChQuery q) throws SQLException {
        long start = System.nanoTime();
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(timeoutSeconds);
            ResultSet rs = s.executeQuery(q.sql());
            long rows = 0;
            while (rs.next()) {
                rows++;
            }
            c.commit();
            stats.get(q.number()).ran(System.nanoTime() - start, rows);
        } catch (SQLException e) {
            c.rollback();
            if ("57014".equals(e.getSQLState())) {
                stats.get(q.number()).timedOut();
            } else {
                stats.get(q.number()).failed(e.getMessage() + " [SQLState " + e.getSQLState() + "]");
            }
        } catch (RuntimeException | OutOfMemoryError e) {
            // A driver bug, or a query whose intermediate results do not fit the heap of an
            // embedded node: counted against the query; the stream goes on with the next one.
            c.rollback();
            stats.get(q.number()).failed(e.toString());
        }
    }
}
