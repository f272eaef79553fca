package io.tell.bench.load;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.LoadProgress;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A bulk load as common loaders do it: one table (a primary key, a secondary index), rows
 * inserted through a prepared INSERT with {@code addBatch}/{@code executeBatch}, in auto-commit
 * mode, by a few threads each with its own connection and its own range of keys. Afterwards the
 * table is counted, to check that every row arrived. Any JDBC URL.
 */
public final class BulkLoad {
    /** What was asked for. */
    public record Options(JdbcTarget target, long rows, int batch, int threads) {
        public Options {
            if (rows < 1 || batch < 1 || threads < 1) {
                throw new IllegalArgumentException("rows, batch and threads must be positive");
            }
        }
    }

    /** What happened: rows inserted, the time taken, and the rows the table holds afterwards. */
    public record Result(long rows, double seconds, long counted) {
        public double rowsPerSecond() {
            return rows / seconds;
        }
    }

    static final String TABLE = "BULK_LOAD";

    private final Options options;
    private final PrintStream out;

    public BulkLoad(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    public Result run() throws Exception {
        try (Connection c = options.target().connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            try {
                s.execute("DROP TABLE " + TABLE);
            } catch (SQLException absent) {
                // nothing to drop
            }
            s.execute("CREATE TABLE " + TABLE + " (ID BIGINT NOT NULL PRIMARY KEY, GRP INTEGER NOT NULL, "
                    + "NAME VARCHAR(40) NOT NULL, AMOUNT DECIMAL(12,2) NOT NULL)");
            s.execute("CREATE INDEX " + TABLE + "_BY_GRP ON " + TABLE + " (GRP)");
        }
        ExecutorService pool = Executors.newFixedThreadPool(options.threads());
        LoadProgress progress = new LoadProgress(options.rows(), out, System.console() != null);
        List<Future<Void>> loaders = new ArrayList<>();
        long per = options.rows() / options.threads();
        for (int t = 0; t < options.threads(); t++) {
            long from = t * per;
            long to = t == options.threads() - 1 ? options.rows() : from + per;
            loaders.add(pool.submit(() -> load(from, to, progress)));
        }
        try {
            for (Future<Void> f : loaders) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
            progress.close();
        }
        double seconds = progress.seconds();
        try (Connection c = options.target().connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + TABLE)) {
            r.next();
            return new Result(options.rows(), seconds, r.getLong(1));
        }
    }

    private Void load(long from, long to, LoadProgress progress) throws SQLException {
        try (Connection c = options.target().connect();
             PreparedStatement insert = c.prepareStatement("INSERT INTO " + TABLE + " VALUES (?, ?, ?, ?)")) {
            c.setAutoCommit(true);
            int pending = 0;
            for (long id = from; id < to; id++) {
                insert.setLong(1, id);
                insert.setInt(2, (int) (id % 1000));
                insert.setString(3, "name-" + id);
                insert.setBigDecimal(4, BigDecimal.valueOf(id % 100_000, 2));
                insert.addBatch();
                if (++pending == options.batch()) {
                    insert.executeBatch();
                    progress.add(pending);
                    pending = 0;
                }
            }
            if (pending > 0) {
                insert.executeBatch();
                progress.add(pending);
            }
        }
        return null;
    }
}
