package io.tell.bench.ch;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

/**
 * Loads the CH-benCHmark's REGION (5 rows), NATION (62) and SUPPLIER (10,000) tables, after
 * TPC-C's own load, through JDBC batches committed every {@code batchSize} rows. The data is a
 * function of the seed alone (one {@link Random}, drawn in a fixed order), so two databases
 * loaded with the same seed hold the same rows.
 *
 * <p>What the benchmark fixes: the regions and the nations with their keys, names and regions
 * (the keys are the character codes of {@code 0-9A-Za-z}, so that a customer's nation is
 * {@code ASCII} of the first letter of C_STATE), 10,000 suppliers (a stock row's supplier is
 * {@code MOD(S_W_ID * S_I_ID, 10000)}), each in a uniformly drawn nation. What is random:
 * comments, addresses and phones (lengths as in the CH-benCHmark's reference loader), and the
 * account balance (uniform in TPC-H's [-999.99, 9999.99]). Supplier names follow TPC-H
 * ({@code Supplier#000000042}), which keeps them unique.
 */
public final class ChLoader {
    /** Rows in SUPPLIER, and the modulus that maps a stock row to its supplier. */
    public static final int SUPPLIERS = 10_000;

    /** The five regions; a region's key is its position plus one. */
    static final List<String> REGIONS = List.of("Africa", "America", "Asia", "Australia", "Europe");

    /** A nation of the benchmark: key, name, region key. */
    record Nation(int key, String name, int region) {
    }

    /**
     * The 62 nations as the benchmark defines them (the spelling "Finnland" included, so that
     * results read like other implementations').
     */
    static final List<Nation> NATIONS = List.of(
            new Nation(48, "Australia", 4), new Nation(49, "Belgium", 5), new Nation(50, "Cameroon", 1),
            new Nation(51, "Denmark", 5), new Nation(52, "Ecuador", 2), new Nation(53, "France", 5),
            new Nation(54, "Germany", 5), new Nation(55, "Hungary", 5), new Nation(56, "Italy", 5),
            new Nation(57, "Japan", 3), new Nation(65, "Kenya", 1), new Nation(66, "Lithuania", 5),
            new Nation(67, "Mexico", 2), new Nation(68, "Netherlands", 5), new Nation(69, "Oman", 1),
            new Nation(70, "Portugal", 5), new Nation(71, "Qatar", 1), new Nation(72, "Rwanda", 1),
            new Nation(73, "Serbia", 5), new Nation(74, "Togo", 1), new Nation(75, "United States", 2),
            new Nation(76, "Vietnam", 3), new Nation(77, "Singapore", 3), new Nation(78, "Cambodia", 3),
            new Nation(79, "Yemen", 1), new Nation(80, "Zimbabwe", 1), new Nation(81, "Argentina", 2),
            new Nation(82, "Bolivia", 2), new Nation(83, "Canada", 2), new Nation(84, "Dominican Republic", 2),
            new Nation(85, "Egypt", 1), new Nation(86, "Finnland", 5), new Nation(87, "Ghana", 1),
            new Nation(88, "Haiti", 2), new Nation(89, "India", 3), new Nation(90, "Jamaica", 4),
            new Nation(97, "Kazakhstan", 3), new Nation(98, "Luxembourg", 5), new Nation(99, "Morocco", 1),
            new Nation(100, "Norway", 5), new Nation(101, "Poland", 5), new Nation(102, "Peru", 2),
            new Nation(103, "Nicaragua", 2), new Nation(104, "Romania", 5), new Nation(105, "South Africa", 1),
            new Nation(106, "Thailand", 3), new Nation(107, "United Kingdom", 5), new Nation(108, "Venezuela", 2),
            new Nation(109, "Liechtenstein", 5), new Nation(110, "Austria", 5), new Nation(111, "Laos", 3),
            new Nation(112, "Zambia", 1), new Nation(113, "Switzerland", 5), new Nation(114, "China", 3),
            new Nation(115, "Papua New Guinea", 4), new Nation(116, "East Timor", 4), new Nation(117, "Bulgaria", 5),
            new Nation(118, "Brazil", 2), new Nation(119, "Albania", 5), new Nation(120, "Andorra", 5),
            new Nation(121, "Belize", 2), new Nation(122, "Botswana", 1));

    private static final char[] ALPHANUMERIC =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final long seed;
    private final int batchSize;

    public ChLoader(long seed, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
        }
        this.seed = seed;
        this.batchSize = batchSize;
    }

    /** Recreates the three tables and fills them; returns the rows written. {@code connection} must not be in auto-commit. */
    public int load(Connection connection) throws SQLException {
        ChSchema.recreateTables(connection);
        Random random = new Random(seed);
        int rows = 0;
        try (PreparedStatement s = connection.prepareStatement(
                "INSERT INTO REGION (R_REGIONKEY, R_NAME, R_COMMENT) VALUES (?, ?, ?)")) {
            for (int r = 0; r < REGIONS.size(); r++) {
                s.setInt(1, r + 1);
                s.setString(2, REGIONS.get(r));
                s.setString(3, text(random, 31, 115));
                rows += add(connection, s, rows);
            }
            flush(connection, s);
        }
        try (PreparedStatement s = connection.prepareStatement(
                "INSERT INTO NATION (N_NATIONKEY, N_NAME, N_REGIONKEY, N_COMMENT) VALUES (?, ?, ?, ?)")) {
            for (Nation n : NATIONS) {
                s.setInt(1, n.key());
                s.setString(2, n.name());
                s.setInt(3, n.region());
                s.setString(4, text(random, 31, 114));
                rows += add(connection, s, rows);
            }
            flush(connection, s);
        }
        try (PreparedStatement s = connection.prepareStatement("INSERT INTO SUPPLIER (SU_SUPPKEY, SU_NAME, SU_ADDRESS,"
                + " SU_NATIONKEY, SU_PHONE, SU_ACCTBAL, SU_COMMENT) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (int k = 1; k <= SUPPLIERS; k++) {
                s.setInt(1, k);
                s.setString(2, String.format("Supplier#%09d", k));
                s.setString(3, text(random, 20, 40));
                s.setInt(4, NATIONS.get(random.nextInt(NATIONS.size())).key());
                s.setString(5, digits(random, 15));
                s.setBigDecimal(6, BigDecimal.valueOf(random.nextInt(-99_999, 1_000_000), 2));
                s.setString(7, text(random, 51, 101));
                rows += add(connection, s, rows);
            }
            flush(connection, s);
        }
        return rows;
    }

    /** Adds the row to the batch and, every {@code batchSize} rows in all, runs and commits it; returns 1. */
    private int add(Connection connection, PreparedStatement s, int rowsBefore) throws SQLException {
        s.addBatch();
        if ((rowsBefore + 1) % batchSize == 0) {
            flush(connection, s);
        }
        return 1;
    }

    private static void flush(Connection connection, PreparedStatement s) throws SQLException {
        s.executeBatch();
        connection.commit();
    }

    /** Random letters and digits, of a length uniform in [min, max]. */
    private static String text(Random random, int min, int max) {
        char[] c = new char[random.nextInt(min, max + 1)];
        for (int i = 0; i < c.length; i++) {
            c[i] = ALPHANUMERIC[random.nextInt(ALPHANUMERIC.length)];
        }
        return new String(c);
    }

    private static String digits(Random random, int length) {
        char[] c = new char[length];
        for (int i = 0; i < length; i++) {
            c[i] = (char) ('0' + random.nextInt(10));
        }
        return new String(c);
    }
}
