package io.tell.bench.jmh;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ThreadLocalRandom;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Point select by primary key and one-row update through JDBC, prepared and as plain
 * statements with literals (which exercise the plan cache's literal lifting), in auto-commit
 * mode. {@code url} runs Tell and H2 side by side in one run:
 * {@code ./tell jmh JdbcPointBench -p url=jdbc:tell:mem:bench,jdbc:h2:mem:bench}.
 */
@State(Scope.Benchmark)
public class JdbcPointBench extends BenchmarkDefaults {
    @Param({"jdbc:tell:mem:bench", "jdbc:h2:mem:bench"})
    public String url;

    @Param({"10000"})
    public int rows;

    private Connection keepAlive;

    /** One connection per benchmark thread, as an application's pool would give it. */
    @State(Scope.Thread)
    public static class Session {
        Connection connection;
        PreparedStatement select;
        PreparedStatement update;
        Statement plain;

        @Setup
        public void open(JdbcPointBench bench) throws SQLException {
            connection = DriverManager.getConnection(bench.url);
            select = connection.prepareStatement("SELECT name, balance FROM bench_account WHERE id = ?");
            update = connection.prepareStatement("UPDATE bench_account SET balance = ? WHERE id = ?");
            plain = connection.createStatement();
        }

        @TearDown
        public void close() throws SQLException {
            connection.close();
        }
    }

    @Setup
    public void load() throws SQLException {
        keepAlive = DriverManager.getConnection(url);
        try (Statement s = keepAlive.createStatement()) {
            s.executeUpdate("DROP TABLE IF EXISTS bench_account");
            s.executeUpdate("CREATE TABLE bench_account (id INTEGER PRIMARY KEY, name VARCHAR(20), balance BIGINT)");
        }
        keepAlive.setAutoCommit(false);
        try (PreparedStatement insert = keepAlive.prepareStatement("INSERT INTO bench_account VALUES (?, ?, ?)")) {
            for (int i = 0; i < rows; i++) {
                insert.setInt(1, i);
                insert.setString(2, "account-" + i);
                insert.setLong(3, 1000);
                insert.addBatch();
                if (i % 1000 == 999) {
                    insert.executeBatch();
                    keepAlive.commit();
                }
            }
            insert.executeBatch();
            keepAlive.commit();
        }
        keepAlive.setAutoCommit(true);
    }

    @TearDown
    public void tearDown() throws SQLException {
        keepAlive.close();
    }

    @Benchmark
    public long preparedPointSelect(Session s) throws SQLException {
        s.select.setInt(1, ThreadLocalRandom.current().nextInt(rows));
        try (ResultSet rs = s.select.executeQuery()) {
            rs.next();
            return rs.getLong(2);
        }
    }

    @Benchmark
    public int preparedUpdate(Session s) throws SQLException {
        s.update.setLong(1, ThreadLocalRandom.current().nextInt(1000));
        s.update.setInt(2, ThreadLocalRandom.current().nextInt(rows));
        return s.update.executeUpdate();
    }

    @Benchmark
    public long plainPointSelect(Session s) throws SQLException {
        int id = ThreadLocalRandom.current().nextInt(rows);
        try (ResultSet rs = s.plain.executeQuery("SELECT name, balance FROM bench_account WHERE id = " + id)) {
            rs.next();
            return rs.getLong(2);
        }
    }

    @Benchmark
    public int plainUpdate(Session s) throws SQLException {
        int id = ThreadLocalRandom.current().nextInt(rows);
        return s.plain.executeUpdate("UPDATE bench_account SET balance = " + (id % 1000) + " WHERE id = " + id);
    }
}
