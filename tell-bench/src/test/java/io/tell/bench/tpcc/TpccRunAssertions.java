package io.tell.bench.tpcc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every short TPC-C run of the tests must show, on any database. */
final class TpccRunAssertions {
    private TpccRunAssertions() {
    }

    /** New-Orders committed, every type ran, no error but retried conflicts, all four consistency conditions hold. */
    static void healthy(TpccResult r) {
        assertTrue(r.type(TransactionType.NEW_ORDER).committed() > 0, "no New-Order committed");
        assertTrue(r.tpmC() > 0);
        assertEquals(0, r.errors(), "errors other than retried conflicts");
        for (TransactionType type : TransactionType.values()) {
            assertTrue(r.type(type).committed() > 0, type + " never committed");
            assertTrue(r.type(type).latency().p99() >= r.type(type).latency().p50());
        }
        assertEquals(4, r.checks().size());
        assertTrue(r.consistent(), "consistency: " + r.checks());
    }

    /** Tell's round trips were counted for the run and for each type alone. */
    static void roundTripsCounted(TpccResult r) {
        assertNotNull(r.roundTrips(), "no round trips counted on Tell");
        assertTrue(r.roundTrips().store() > 0 && r.roundTrips().commitManager() > 0, r.roundTrips().toString());
        for (TransactionType type : TransactionType.values()) {
            RoundTrips alone = r.roundTripsAlone().get(type);
            assertNotNull(alone, type + " not run alone");
            assertTrue(alone.transactions() >= RoundTripCalibration.MIN_RUNS, alone.toString());
            assertTrue(alone.reads() > 0 && alone.commitManager() > 0, type + ": " + alone);
        }
        // New-Order writes, Order-Status only reads.
        assertTrue(r.roundTripsAlone().get(TransactionType.NEW_ORDER).writes() >= 1);
        assertEquals(0, r.roundTripsAlone().get(TransactionType.ORDER_STATUS).writes(), 0.01);
    }
}
