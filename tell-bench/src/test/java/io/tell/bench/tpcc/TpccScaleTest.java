package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The reduced scale of the tests: the specification's shares on a tenth of the items and customers. */
class TpccScaleTest {

    @Test
    void specScaleHasTheSpecifiedCardinalities() {
        TpccScale spec = TpccScale.SPEC;
        assertTrue(spec.isSpec());
        assertEquals(100_000, spec.stockPerWarehouse());
        assertEquals(3_000, spec.ordersPerDistrict());
        assertEquals(2_101, spec.firstNewOrder());
        assertEquals(900, spec.newOrdersPerDistrict());
        assertEquals(1_000, spec.lastNames());
        assertEquals(100_001, spec.unusedItem());
        assertThrows(IllegalArgumentException.class, () -> new TpccScale(100, 15));
    }

    @Test
    void reducedLoadKeepsTheSharesAndIsConsistent() throws Exception {
        TpccScale scale = TpccScale.reducedBy(10);
        assertFalse(scale.isSpec());
        JdbcTarget h2 = JdbcTarget.of("jdbc:h2:mem:tpcc-scale-test;LOCK_TIMEOUT=10000");
        try (Connection c = h2.connect()) {
            new TpccLoader(h2, 1, 2, 7, 1_000, scale).load(c, null, false);
            assertEquals(10_000, count(c, "SELECT COUNT(*) FROM ITEM"));
            assertEquals(10_000, count(c, "SELECT COUNT(*) FROM STOCK"));
            assertEquals(3_000, count(c, "SELECT COUNT(*) FROM CUSTOMER"));
            assertEquals(3_000, count(c, "SELECT COUNT(*) FROM OORDER"));
            assertEquals(900, count(c, "SELECT COUNT(*) FROM NEW_ORDER"));
            assertEquals(211, count(c, "SELECT MIN(NO_O_ID) FROM NEW_ORDER"));
            assertEquals(301, count(c, "SELECT MAX(D_NEXT_O_ID) FROM DISTRICT"));
            assertEquals(300, count(c, "SELECT COUNT(DISTINCT C_LAST) FROM CUSTOMER WHERE C_D_ID = 1"));
            assertEquals(0, count(c, "SELECT COUNT(*) FROM ORDER_LINE WHERE OL_I_ID > 10000"));
            ConsistencyCheck.run(c).forEach(check -> assertTrue(check.passed(), check.toString()));
        }
        TpccRandom random = new TpccRandom(7, NuRandConstants.forRun(7), scale);
        for (int i = 0; i < 10_000; i++) {
            assertTrue(random.itemId() <= 10_000);
            assertTrue(random.customerId() <= 300);
            String last = random.randomLastName();
            assertTrue(java.util.stream.IntStream.range(0, 300).anyMatch(n -> TpccRandom.lastName(n).equals(last)), last);
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
