package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Savepoints: going back undoes exactly the writes since, nested ones with them, and the commit writes what is left. */
class SavepointTest {
    private static final String T = "rows";
    private RecordStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn");
        tm.run(1, tx -> {
            tx.insert(T, b("kept"), b("k0"));
            tx.insert(T, b("gone"), b("g0"));
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
        store.close();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private String read(Transaction tx, String key) {
        byte[] v = tx.get(T, b(key));
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    private String committed(String key) {
        try (Transaction tx = tm.beginReadOnly()) {
            return read(tx, key);
        }
    }

    @Test
    void rollingBackUndoesTheWritesSinceAndTheCommitWritesTheRest() {
        Transaction tx = tm.begin();
        tx.insert(T, b("a"), b("a1"));
        Transaction.Savepoint s1 = tx.savepoint();
        tx.update(T, b("a"), b("a2"));
        tx.insert(T, b("b"), b("b1"));
        tx.delete(T, b("gone"));
        tx.update(T, b("kept"), b("k1"));
        assertEquals("a2", read(tx, "a"));
        assertNull(read(tx, "gone"));

        tx.rollbackTo(s1);
        assertEquals("a1", read(tx, "a"), "a write before the savepoint stays");
        assertNull(read(tx, "b"));
        assertEquals("g0", read(tx, "gone"));
        assertEquals("k0", read(tx, "kept"));

        tx.insert(T, b("c"), b("c1")); // the savepoint stays open: this too can be undone
        tx.rollbackTo(s1);
        assertNull(read(tx, "c"));
        tx.insert(T, b("d"), b("d1"));
        tx.release(s1);
        tx.commit();

        assertEquals("a1", committed("a"));
        assertNull(committed("b"));
        assertNull(committed("c"));
        assertEquals("d1", committed("d"));
        assertEquals("g0", committed("gone"));
        assertEquals("k0", committed("kept"));
    }

    @Test
    void nestedSavepointsGoWithAnOuterOne() {
        Transaction tx = tm.begin();
        Transaction.Savepoint outer = tx.savepoint();
        tx.insert(T, b("x"), b("x1"));
        Transaction.Savepoint inner = tx.savepoint();
        tx.update(T, b("x"), b("x2"));
        tx.insert(T, b("y"), b("y1"));
        tx.rollbackTo(inner);
        assertEquals("x1", read(tx, "x"));
        assertNull(read(tx, "y"));
        tx.update(T, b("kept"), b("k2"));
        tx.rollbackTo(outer);
        assertNull(read(tx, "x"));
        assertEquals("k0", read(tx, "kept"));
        tx.commit();
        assertNull(committed("x"));
        assertArrayEquals(b("k0"), b(committed("kept")));
    }

    @Test
    void aSavepointBelongsToItsTransaction() {
        Transaction one = tm.begin();
        Transaction two = tm.begin();
        Transaction.Savepoint s = one.savepoint();
        assertThrows(IllegalArgumentException.class, () -> two.rollbackTo(s));
        one.rollback();
        two.rollback();
    }
}
