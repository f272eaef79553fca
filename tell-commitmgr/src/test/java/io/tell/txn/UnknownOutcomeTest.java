package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStores;
import io.tell.store.Versioned;
import io.tell.store.WriteResult;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A commit whose apply batch gets no answer must leave nothing of the transaction, even later. */
class UnknownOutcomeTest {
    private static final String D = "rows";
    private FaultyStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        store = new FaultyStore(RecordStores.open("mem:"));
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn");
        tm.run(1, tx -> {
            tx.insert(D, b("existing"), b("old"));
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private long failingCommit(FaultyStore.Fault fault) {
        return failingCommit(fault, Isolation.SERIALIZABLE);
    }

    /** The commit fails with STORE_TIMEOUT; under SERIALIZABLE the node decides nothing itself. */
    private long failingCommit(FaultyStore.Fault fault, Isolation isolation) {
        Transaction tx = tm.begin(isolation);
        tx.update(D, b("existing"), b("new"));
        tx.insert(D, b("fresh"), b("x"));
        store.failNextBatchOn(D, fault);
        TellException e = assertThrows(TellException.class, tx::commit);
        assertSame(ErrorCode.STORE_TIMEOUT, e.code());
        assertTrue(e.retriable());
        return tx.tid();
    }

    private void assertNothingOf(long tid) {
        for (String key : new String[] {"existing", "fresh"}) {
            Versioned v = store.get(D, b(key));
            if (v != null) {
                assertFalse(MvccRecord.decode(v.value()).hasVersionOf(tid), key + " keeps a version of aborted tid " + tid);
            }
        }
        try (Transaction r = tm.beginReadOnly()) {
            assertArrayEquals(b("old"), r.get(D, b("existing")));
            assertNull(r.get(D, b("fresh")));
        }
    }

    @Test
    void appliedBatchWithoutAnswerIsReverted() {
        long tid = failingCommit(FaultyStore.Fault.APPLY_THEN_TIMEOUT);
        assertNothingOf(tid);
    }

    @Test
    void selfDecidedBatchThatLandedWithoutAnswerIsCommitted() {
        // Under snapshot isolation the last batch carries the node's decision: it landed whole,
        // so the commit stands, found by the node's check of its own log entry.
        Transaction tx = tm.begin();
        tx.update(D, b("existing"), b("new"));
        tx.insert(D, b("fresh"), b("x"));
        store.failNextBatchOn(D, FaultyStore.Fault.APPLY_THEN_TIMEOUT);
        tx.commit();
        try (Transaction r = tm.beginReadOnly()) {
            assertArrayEquals(b("new"), r.get(D, b("existing")));
            assertArrayEquals(b("x"), r.get(D, b("fresh")));
        }
        assertNull(store.get(TxLog.DOMAIN, TxLog.key(tx.tid())), "the decided entry is removed once reported");
    }

    @Test
    void selfDecidedBatchDeliveredLateCannotDecide() {
        // The node withdraws its own entry before it reverts: the late batch's decision cannot land.
        long tid = failingCommit(FaultyStore.Fault.DELAY_AND_TIMEOUT, Isolation.SNAPSHOT);
        for (WriteResult r : store.deliverLate()) {
            assertFalse(r.written(), "a late write of the aborted transaction went through");
        }
        assertNothingOf(tid);
        assertSame(TxLog.State.WITHDRAWN, TxLog.decode(store.get(TxLog.DOMAIN, TxLog.key(tid)).value()).state());
    }

    @Test
    void batchDeliveredAfterTheRevertCannotResurrectTheTransaction() {
        long tid = failingCommit(FaultyStore.Fault.DELAY_AND_TIMEOUT);
        for (WriteResult r : store.deliverLate()) {
            assertFalse(r.written(), "a late write of the aborted transaction went through");
        }
        assertNothingOf(tid);
        // The placeholder left for the absent row does not get in the way of a real insert.
        tm.run(1, tx -> {
            tx.insert(D, b("fresh"), b("real"));
            return null;
        });
        try (Transaction r = tm.beginReadOnly()) {
            assertArrayEquals(b("real"), r.get(D, b("fresh")));
        }
    }
}
