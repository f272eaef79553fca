package io.tell.server;

import static io.tell.server.PgJdbcIT.count;
import static io.tell.server.PgJdbcIT.show;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Transactions through the PostgreSQL JDBC driver: blocks, isolation, conflicts and retries, failed blocks, cursors, cancel. */
class PgTransactionIT {
    private static PgTestServer server;

    @BeforeAll
    static void start() throws SQLException {
        server = PgTestServer.trust();
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id INTEGER PRIMARY KEY, balance BIGINT)");
            s.execute("CREATE TABLE item (id INTEGER PRIMARY KEY, name VARCHAR(20))");
            try (PreparedStatement p = c.prepareStatement("INSERT INTO item VALUES (?, ?)")) {
                for (int i = 0; i < 100; i++) {
                    p.setInt(1, i);
                    p.setString(2, "item" + i);
                    p.addBatch();
                }
                p.executeBatch();
            }
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void commitKeepsAndRollbackDiscards() throws SQLException {
        try (Connection c = server.connect(); Connection other = server.connect(); Statement s = c.createStatement();
             Statement o = other.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO account VALUES (1, 100)");
            assertEquals(1, count(s, "SELECT count(*) FROM account WHERE id = 1"));
            assertEquals(0, count(o, "SELECT count(*) FROM account WHERE id = 1")); // not yet visible elsewhere
            c.commit();
            assertEquals(1, count(o, "SELECT count(*) FROM account WHERE id = 1"));
            s.executeUpdate("UPDATE account SET balance = 0 WHERE id = 1");
            c.rollback();
            assertEquals(100, count(o, "SELECT balance FROM account WHERE id = 1"));
        }
    }

    @Test
    void isolationLevelsAreSetAndShown() throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            assertEquals(Connection.TRANSACTION_SERIALIZABLE, c.getTransactionIsolation());
            s.execute("BEGIN ISOLATION LEVEL REPEATABLE READ");
            assertEquals("repeatable read", show(s, "transaction_isolation"));
            s.execute("COMMIT");
            assertEquals("serializable", show(s, "transaction_isolation"));
            c.setReadOnly(true);
            c.setAutoCommit(false);
            assertEquals("25006", assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO account VALUES (99, 1)")).getSQLState());
            c.rollback();
        }
    }

    /** Two writers of one row: the second gets 40001, and its retry succeeds. */
    @Test
    void conflictIsRetriable() throws SQLException {
        try (Connection a = server.connect(); Connection b = server.connect(); Statement sa = a.createStatement();
             Statement sb = b.createStatement()) {
            sa.executeUpdate("INSERT INTO account VALUES (2, 10)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            assertEquals(10, count(sb, "SELECT balance FROM account WHERE id = 2")); // b's snapshot
            sa.executeUpdate("UPDATE account SET balance = balance + 1 WHERE id = 2");
            a.commit();
            SQLException e = assertThrows(SQLException.class, () -> {
                sb.executeUpdate("UPDATE account SET balance = balance + 5 WHERE id = 2");
                b.commit();
            });
            assertEquals("40001", e.getSQLState());
            b.rollback();
            sb.executeUpdate("UPDATE account SET balance = balance + 5 WHERE id = 2"); // the retry
            b.commit();
            assertEquals(16, count(sa, "SELECT balance FROM account WHERE id = 2"));
        }
    }

    /** After an error inside a block every command gets 25P02 until ROLLBACK, which undoes the block's earlier writes. */
    @Test
    void failedBlockRefusesUntilRollback() throws SQLException {
        for (String options : new String[] {"", "preferQueryMode=simple"}) {
            try (Connection c = server.connect(options); Statement s = c.createStatement()) {
                s.execute("BEGIN");
                s.executeUpdate("INSERT INTO account VALUES (3, 1)");
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1 / 0"));
                assertEquals("25P02", assertThrows(SQLException.class, () -> s.executeQuery("SELECT 1")).getSQLState());
                s.execute("ROLLBACK");
                assertEquals(0, count(s, "SELECT count(*) FROM account WHERE id = 3"));
                s.execute("BEGIN");
                assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM nowhere"));
                s.execute("COMMIT"); // a failed block's COMMIT rolls back, as PostgreSQL's does
                assertEquals(1, count(s, "SELECT 1"));
            }
        }
    }

    /** fetchSize with auto-commit off: the driver reads through a portal 10 rows at a time (Execute with a row limit). */
    @Test
    void fetchSizeSuspendsThePortal() throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.setFetchSize(10);
            int rows = 0;
            try (ResultSet rs = s.executeQuery("SELECT id, name FROM item ORDER BY id")) {
                while (rs.next()) {
                    assertEquals(rows, rs.getInt(1));
                    assertEquals("item" + rows, rs.getString(2));
                    rows++;
                }
            }
            assertEquals(100, rows);
            s.setMaxRows(7);
            try (ResultSet rs = s.executeQuery("SELECT id FROM item")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                assertEquals(7, n);
            }
            c.commit();
        }
    }

    /** The driver's query timeout sends a CancelRequest on another connection; statement_timeout cancels on the server. */
    @Test
    void longStatementsAreCancelled() throws SQLException {
        String endless = "SELECT count(*) FROM item a, item b, item c, item d, item e";
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            SQLException e = assertTimeoutPreemptively(Duration.ofSeconds(60),
                    () -> assertThrows(SQLException.class, () -> s.executeQuery(endless)));
            assertEquals("57014", e.getSQLState());
            s.setQueryTimeout(0);
            s.execute("SET statement_timeout = 300");
            e = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(SQLException.class, () -> s.executeQuery(endless)));
            assertEquals("57014", e.getSQLState());
            s.execute("SET statement_timeout = 0");
            assertEquals(100, count(s, "SELECT count(*) FROM item"));
        }
    }

    /** Concurrent transfers over many connections, retried on 40001: no money is made or lost. */
    @Test
    void concurrentTransfersKeepTheTotal() throws Exception {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE bank (id INTEGER PRIMARY KEY, balance BIGINT)");
            for (int i = 0; i < 10; i++) {
                s.execute("INSERT INTO bank VALUES (" + i + ", 1000)");
            }
        }
        AtomicInteger conflicts = new AtomicInteger();
        List<Future<?>> workers = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(6)) {
            for (int t = 0; t < 6; t++) {
                int seed = t;
                workers.add(pool.submit(() -> transfers(seed, 40, conflicts)));
            }
            for (Future<?> f : workers) {
                f.get(120, TimeUnit.SECONDS);
            }
        }
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            assertEquals(10_000, count(s, "SELECT sum(balance) FROM bank"));
        }
        System.out.println("concurrentTransfersKeepTheTotal: " + conflicts.get() + " retried conflicts");
    }

    private static Void transfers(int seed, int count, AtomicInteger conflicts) throws SQLException {
        Random random = new Random(seed);
        try (Connection c = server.connect("prepareThreshold=1"); PreparedStatement p = c.prepareStatement(
                "UPDATE bank SET balance = balance + ? WHERE id = ?")) {
            c.setAutoCommit(false);
            for (int done = 0; done < count; ) {
                int from = random.nextInt(10);
                int to = (from + 1 + random.nextInt(9)) % 10;
                try {
                    p.setLong(1, -7);
                    p.setInt(2, from);
                    p.executeUpdate();
                    p.setLong(1, 7);
                    p.setInt(2, to);
                    p.executeUpdate();
                    c.commit();
                    done++;
                } catch (SQLException e) {
                    assertEquals("40001", e.getSQLState(), e::toString);
                    conflicts.incrementAndGet();
                    c.rollback();
                }
            }
        }
        return null;
    }

    /** A client gone mid-transaction leaves nothing behind: its writes are rolled back and block no one. */
    @Test
    void disconnectRollsBack() throws SQLException {
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO account VALUES (4, 40)");
        }
        try (Connection c = server.connect(); Statement s = c.createStatement()) {
            assertEquals(0, count(s, "SELECT count(*) FROM account WHERE id = 4"));
            s.executeUpdate("INSERT INTO account VALUES (4, 41)");
            assertFalse(c.isClosed());
            assertTrue(c.isValid(5));
        }
    }
}
