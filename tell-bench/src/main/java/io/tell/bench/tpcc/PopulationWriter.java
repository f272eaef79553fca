package io.tell.bench.tpcc;

import static io.tell.bench.tpcc.TpccScale.DISTRICTS_PER_WAREHOUSE;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;

/**
 * Writes the initial database population of TPC-C §4.3.3.1, one slice at a time (a range of
 * items or stock, one warehouse with its districts, one district's customers or orders), so
 * the loader can spread slices over threads. Each slice draws from its own {@link TpccRandom}.
 */
final class PopulationWriter {
    private final Connection connection;
    private final TpccRandom random;
    private final TpccScale scale;
    private final int batchSize;
    private final LoadProgress progress;
    private final Timestamp now;

    PopulationWriter(Connection connection, TpccRandom random, int batchSize, LoadProgress progress, Timestamp now) {
        this.connection = connection;
        this.random = random;
        this.scale = random.scale();
        this.batchSize = batchSize;
        this.progress = progress;
        this.now = now;
    }

    private BatchInsert insert(String sql) throws SQLException {
        return new BatchInsert(connection, sql, batchSize, progress);
    }

    /** ITEM rows {@code from..to} inclusive. */
    void items(int from, int to) throws SQLException {
        try (BatchInsert b = insert("INSERT INTO ITEM (I_ID, I_IM_ID, I_NAME, I_PRICE, I_DATA) VALUES (?, ?, ?, ?, ?)")) {
            PreparedStatement s = b.statement();
            for (int i = from; i <= to; i++) {
                s.setInt(1, i);
                s.setInt(2, random.uniform(1, 10_000));
                s.setString(3, random.aString(14, 24));
                s.setBigDecimal(4, random.decimal("1.00", "100.00", 2));
                s.setString(5, random.data());
                b.add();
            }
        }
    }

    /** The WAREHOUSE row {@code w} and its ten DISTRICT rows. */
    void warehouse(int w) throws SQLException {
        try (BatchInsert b = insert("INSERT INTO WAREHOUSE (W_ID, W_NAME, W_STREET_1, W_STREET_2, W_CITY, W_STATE, W_ZIP, W_TAX, W_YTD)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            PreparedStatement s = b.statement();
            s.setInt(1, w);
            address(s, 2);
            s.setBigDecimal(8, random.decimal("0.0000", "0.2000", 4));
            s.setBigDecimal(9, new BigDecimal("300000.00"));
            b.add();
        }
        try (BatchInsert b = insert("INSERT INTO DISTRICT (D_ID, D_W_ID, D_NAME, D_STREET_1, D_STREET_2, D_CITY, D_STATE, D_ZIP,"
                + " D_TAX, D_YTD, D_NEXT_O_ID) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            PreparedStatement s = b.statement();
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                s.setInt(1, d);
                s.setInt(2, w);
                address(s, 3);
                s.setBigDecimal(9, random.decimal("0.0000", "0.2000", 4));
                s.setBigDecimal(10, new BigDecimal("30000.00"));
                s.setInt(11, scale.ordersPerDistrict() + 1);
                b.add();
            }
        }
    }

    /** Name, two streets, city, state and zip into six parameters from {@code first} on. */
    private void address(PreparedStatement s, int first) throws SQLException {
        s.setString(first, random.aString(6, 10));
        s.setString(first + 1, random.aString(10, 20));
        s.setString(first + 2, random.aString(10, 20));
        s.setString(first + 3, random.aString(10, 20));
        s.setString(first + 4, random.aString(2, 2).toUpperCase());
        s.setString(first + 5, random.zip());
    }

    /** STOCK rows of warehouse {@code w} for items {@code from..to} inclusive. */
    void stock(int w, int from, int to) throws SQLException {
        try (BatchInsert b = insert("INSERT INTO STOCK (S_I_ID, S_W_ID, S_QUANTITY, S_DIST_01, S_DIST_02, S_DIST_03, S_DIST_04,"
                + " S_DIST_05, S_DIST_06, S_DIST_07, S_DIST_08, S_DIST_09, S_DIST_10, S_YTD, S_ORDER_CNT, S_REMOTE_CNT, S_DATA)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            PreparedStatement s = b.statement();
            for (int i = from; i <= to; i++) {
                s.setInt(1, i);
                s.setInt(2, w);
                s.setInt(3, random.uniform(10, 100));
                for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) {
                    s.setString(4 + d, random.aString(24, 24));
                }
                s.setInt(14, 0);
                s.setInt(15, 0);
                s.setInt(16, 0);
                s.setString(17, random.data());
                b.add();
            }
        }
    }

    /** The CUSTOMER rows of district {@code (w, d)}, each with its HISTORY row. */
    void customers(int w, int d) throws SQLException {
        try (BatchInsert c = insert("INSERT INTO CUSTOMER (C_ID, C_D_ID, C_W_ID, C_FIRST, C_MIDDLE, C_LAST, C_STREET_1, C_STREET_2,"
                + " C_CITY, C_STATE, C_ZIP, C_PHONE, C_SINCE, C_CREDIT, C_CREDIT_LIM, C_DISCOUNT, C_BALANCE, C_YTD_PAYMENT,"
                + " C_PAYMENT_CNT, C_DELIVERY_CNT, C_DATA) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             BatchInsert h = insert("INSERT INTO HISTORY (H_C_ID, H_C_D_ID, H_C_W_ID, H_D_ID, H_W_ID, H_DATE, H_AMOUNT, H_DATA)"
                     + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            PreparedStatement s = c.statement();
            for (int id = 1; id <= scale.customersPerDistrict(); id++) {
                s.setInt(1, id);
                s.setInt(2, d);
                s.setInt(3, w);
                s.setString(4, random.aString(8, 16));
                s.setString(5, "OE");
                // The first 1000 customers take every last name once; the others NURand(255, 0, 999).
                // (On a reduced scale, with fewer customers, each takes its own.)
                s.setString(6, id <= scale.lastNames() ? TpccRandom.lastName(id - 1) : random.randomLastName());
                s.setString(7, random.aString(10, 20));
                s.setString(8, random.aString(10, 20));
                s.setString(9, random.aString(10, 20));
                s.setString(10, random.aString(2, 2).toUpperCase());
                s.setString(11, random.zip());
                s.setString(12, random.nString(16, 16));
                s.setTimestamp(13, now);
                s.setString(14, random.uniform(1, 100) <= 10 ? "BC" : "GC");
                s.setBigDecimal(15, new BigDecimal("50000.00"));
                s.setBigDecimal(16, random.decimal("0.0000", "0.5000", 4));
                s.setBigDecimal(17, new BigDecimal("-10.00"));
                s.setBigDecimal(18, new BigDecimal("10.00"));
                s.setInt(19, 1);
                s.setInt(20, 0);
                s.setString(21, random.aString(300, 500));
                c.add();

                PreparedStatement hs = h.statement();
                hs.setInt(1, id);
                hs.setInt(2, d);
                hs.setInt(3, w);
                hs.setInt(4, d);
                hs.setInt(5, w);
                hs.setTimestamp(6, now);
                hs.setBigDecimal(7, new BigDecimal("10.00"));
                hs.setString(8, random.aString(12, 24));
                h.add();
            }
        }
    }

    /** The OORDER rows of district {@code (w, d)} with their ORDER_LINE rows, and NEW_ORDER for the undelivered ones. */
    void orders(int w, int d) throws SQLException {
        try (BatchInsert o = insert("INSERT INTO OORDER (O_ID, O_D_ID, O_W_ID, O_C_ID, O_ENTRY_D, O_CARRIER_ID, O_OL_CNT, O_ALL_LOCAL)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
             BatchInsert ol = insert("INSERT INTO ORDER_LINE (OL_O_ID, OL_D_ID, OL_W_ID, OL_NUMBER, OL_I_ID, OL_SUPPLY_W_ID,"
                     + " OL_DELIVERY_D, OL_QUANTITY, OL_AMOUNT, OL_DIST_INFO) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
             BatchInsert no = insert("INSERT INTO NEW_ORDER (NO_O_ID, NO_D_ID, NO_W_ID) VALUES (?, ?, ?)")) {
            int[] customers = random.permutation(scale.customersPerDistrict());
            for (int id = 1; id <= scale.ordersPerDistrict(); id++) {
                boolean delivered = id < scale.firstNewOrder();
                int lines = random.uniform(TpccScale.MIN_OL, TpccScale.MAX_OL);
                PreparedStatement s = o.statement();
                s.setInt(1, id);
                s.setInt(2, d);
                s.setInt(3, w);
                s.setInt(4, customers[id - 1]);
                s.setTimestamp(5, now);
                if (delivered) {
                    s.setInt(6, random.uniform(1, 10));
                } else {
                    s.setNull(6, Types.SMALLINT);
                }
                s.setInt(7, lines);
                s.setInt(8, 1);
                o.add();
                for (int n = 1; n <= lines; n++) {
                    orderLine(ol.statement(), w, d, id, n, delivered);
                    ol.add();
                }
                if (!delivered) {
                    PreparedStatement ns = no.statement();
                    ns.setInt(1, id);
                    ns.setInt(2, d);
                    ns.setInt(3, w);
                    no.add();
                }
            }
        }
    }

    private void orderLine(PreparedStatement s, int w, int d, int orderId, int number, boolean delivered) throws SQLException {
        s.setInt(1, orderId);
        s.setInt(2, d);
        s.setInt(3, w);
        s.setInt(4, number);
        s.setInt(5, random.uniform(1, scale.items()));
        s.setInt(6, w);
        if (delivered) {
            s.setTimestamp(7, now);
        } else {
            s.setNull(7, Types.TIMESTAMP);
        }
        s.setInt(8, 5);
        s.setBigDecimal(9, delivered ? new BigDecimal("0.00") : random.decimal("0.01", "9999.99", 2));
        s.setString(10, random.aString(24, 24));
    }
}
