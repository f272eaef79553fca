package io.tell.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.bench.tpcc.JdbcTarget;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** The bulk-load benchmark loads every row exactly once, also when run again on the same database. */
class BulkLoadTest {
    @Test
    void everyRowArrivesOnceAndTheIndexFindsThem() throws Exception {
        JdbcTarget target = JdbcTarget.of("jdbc:tell:mem:bulkloadtest");
        for (int run = 0; run < 2; run++) { // the second run drops and re-creates the table
            BulkLoad.Result r = new BulkLoad(new BulkLoad.Options(target, 3_001, 128, 3), null).run();
            assertEquals(3_001, r.rows());
            assertEquals(3_001, r.counted());
        }
        try (Connection c = target.connect(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*), MIN(ID), MAX(ID) FROM BULK_LOAD WHERE GRP = 7")) {
            r.next();
            assertEquals(3, r.getLong(1)); // ids 0..3000: 7, 1007 and 2007
            assertEquals(7, r.getLong(2));
            assertEquals(2007, r.getLong(3));
        }
    }
}
