package io.tell.bench.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Random;

/**
 * A processing node in its own JVM for {@link TwoJvmSqlIT}: marks its start in the shared
 * database, runs money transfers between accounts through JDBC (retrying SQLState 40001), and
 * prints {@code done <committed> <retries>}. Args: URL ACCOUNTS TRANSFERS SEED.
 */
public final class TransferNode {
    private TransferNode() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int accounts = Integer.parseInt(args[1]);
        int transfers = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        try (Connection c = DriverManager.getConnection(url)) {
            try (PreparedStatement marker = c.prepareStatement("INSERT INTO node_log VALUES (?, ?)")) {
                marker.setLong(1, seed);
                marker.setString(2, "child started");
                marker.executeUpdate();
            }
            int[] stats = transfers(c, accounts, transfers, new Random(seed));
            System.out.println("done " + stats[0] + " " + stats[1]);
        }
    }

    /** Runs transfers on {@code c}; returns {committed, retries}. */
    static int[] transfers(Connection c, int accounts, int transfers, Random random) throws SQLException {
        c.setAutoCommit(false);
        int committed = 0;
        int retries = 0;
        try (PreparedStatement read = c.prepareStatement("SELECT balance FROM account WHERE id = ?");
             PreparedStatement write = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
            while (committed < transfers) {
                int from = random.nextInt(accounts);
                int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
                int amount = 1 + random.nextInt(10);
                try {
                    long a = balance(read, from);
                    long b = balance(read, to);
                    write.setLong(1, a - amount);
                    write.setInt(2, from);
                    write.executeUpdate();
                    write.setLong(1, b + amount);
                    write.setInt(2, to);
                    write.executeUpdate();
                    c.commit();
                    committed++;
                } catch (SQLException e) {
                    c.rollback();
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    retries++;
                }
            }
        }
        c.setAutoCommit(true);
        return new int[] {committed, retries};
    }

    private static long balance(PreparedStatement read, int id) throws SQLException {
        read.setInt(1, id);
        try (ResultSet rs = read.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("account " + id + " is missing");
            }
            return rs.getLong(1);
        }
    }
}
