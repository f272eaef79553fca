package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The initial population of one warehouse on H2 in memory has the cardinalities of TPC-C §4.3.3.1. */
class TpccLoaderTest {
    private static final JdbcTarget H2 = JdbcTarget.of("jdbc:h2:mem:tpcc-loader-test;LOCK_TIMEOUT=10000");
    private static Connection connection;

    @BeforeAll
    static void load() throws Exception {
        connection = H2.connect();
        TpccLoader.Result r = new TpccLoader(H2, 1, 2, Long.getLong("tell.seed", 20261122L), 1_000).load(connection, null, false);
        System.out.printf("loaded %,d rows in %.1f s%n", r.rows(), r.seconds());
    }

    @AfterAll
    static void close() throws SQLException {
        connection.close();
    }

    private static long count(String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void everyTableHasTheSpecifiedRowCount() throws SQLException {
        assertEquals(100_000, count("SELECT COUNT(*) FROM ITEM"));
        assertEquals(1, count("SELECT COUNT(*) FROM WAREHOUSE"));
        assertEquals(100_000, count("SELECT COUNT(*) FROM STOCK"));
        assertEquals(10, count("SELECT COUNT(*) FROM DISTRICT"));
        assertEquals(30_000, count("SELECT COUNT(*) FROM CUSTOMER"));
        assertEquals(30_000, count("SELECT COUNT(*) FROM HISTORY"));
        assertEquals(30_000, count("SELECT COUNT(*) FROM OORDER"));
        assertEquals(9_000, count("SELECT COUNT(*) FROM NEW_ORDER"));
        long lines = count("SELECT COUNT(*) FROM ORDER_LINE");
        assertEquals(count("SELECT SUM(O_OL_CNT) FROM OORDER"), lines);
        assertEquals(300_000, lines, 3_000, "about 10 lines per order");
    }

    @Test
    void perDistrictPopulations() throws SQLException {
        for (int d = 1; d <= 10; d++) {
            assertEquals(3_000, count("SELECT COUNT(*) FROM CUSTOMER WHERE C_W_ID = 1 AND C_D_ID = " + d));
            assertEquals(900, count("SELECT COUNT(*) FROM NEW_ORDER WHERE NO_W_ID = 1 AND NO_D_ID = " + d));
            assertEquals(2_101, count("SELECT MIN(NO_O_ID) FROM NEW_ORDER WHERE NO_W_ID = 1 AND NO_D_ID = " + d));
            assertEquals(3_000, count("SELECT COUNT(DISTINCT O_C_ID) FROM OORDER WHERE O_W_ID = 1 AND O_D_ID = " + d));
            assertEquals(1_000, count("SELECT COUNT(DISTINCT C_LAST) FROM CUSTOMER WHERE C_W_ID = 1 AND C_D_ID = " + d));
        }
        assertEquals(3_001, count("SELECT MIN(D_NEXT_O_ID) FROM DISTRICT"));
        assertEquals(3_001, count("SELECT MAX(D_NEXT_O_ID) FROM DISTRICT"));
        assertEquals(9_000, count("SELECT COUNT(*) FROM OORDER WHERE O_CARRIER_ID IS NULL"));
        assertEquals(0, count("SELECT COUNT(*) FROM OORDER WHERE O_ID < 2101 AND O_CARRIER_ID IS NULL"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDER_LINE WHERE OL_O_ID < 2101 AND (OL_DELIVERY_D IS NULL OR OL_AMOUNT <> 0)"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDER_LINE WHERE OL_O_ID >= 2101 AND (OL_DELIVERY_D IS NOT NULL OR OL_AMOUNT = 0)"));
        assertEquals(0, count("SELECT COUNT(*) FROM ORDER_LINE WHERE OL_NUMBER < 1 OR OL_NUMBER > 15"));
    }

    @Test
    void randomAttributesHaveTheirShares() throws SQLException {
        assertEquals(0.10, count("SELECT COUNT(*) FROM ITEM WHERE I_DATA LIKE '%ORIGINAL%'") / 100_000.0, 0.01);
        assertEquals(0.10, count("SELECT COUNT(*) FROM STOCK WHERE S_DATA LIKE '%ORIGINAL%'") / 100_000.0, 0.01);
        assertEquals(0.10, count("SELECT COUNT(*) FROM CUSTOMER WHERE C_CREDIT = 'BC'") / 30_000.0, 0.01);
        assertEquals(30_000, count("SELECT COUNT(*) FROM CUSTOMER WHERE C_CREDIT IN ('BC', 'GC')"));
        assertEquals(0, count("SELECT COUNT(*) FROM STOCK WHERE S_QUANTITY < 10 OR S_QUANTITY > 100"));
        assertEquals(0, count("SELECT COUNT(*) FROM ITEM WHERE I_PRICE < 1 OR I_PRICE > 100"));
    }

    @Test
    void theLoadIsConsistent() throws SQLException {
        List<ConsistencyCheck.Result> checks = ConsistencyCheck.run(connection);
        assertEquals(4, checks.size());
        checks.forEach(c -> assertTrue(c.passed(), c.toString()));
    }
}
