package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Filling an index added after its table has rows ({@link Transaction#reindex}), and removing one. */
class ReindexTest {
    private static final String T = "cities";
    private RecordStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;

    @BeforeEach
    void setUp() {
        store = RecordStores.open("mem:");
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn-1");
    }

    @AfterEach
    void tearDown() {
        tm.close();
        cm.close();
        store.close();
    }

    private TableIndex index(String name, boolean unique) {
        return new TableIndex(T, BTree.open(store, BTreeConfig.of(name, false)), unique,
                row -> row.length == 0 ? null : row);
    }

    private void put(long rid, String city) {
        tm.run(3, tx -> {
            tx.put(T, TableIndex.ridKey(rid), b(city));
            return null;
        });
    }

    private boolean reindex(TableIndex ix, long rid) {
        return tm.run(3, tx -> tx.reindex(ix, TableIndex.ridKey(rid)));
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void reindexAddsTheEntryOfAnExistingRow() {
        put(1, "Bern");
        TableIndex ix = index("cities.i1", false);
        tm.addIndex(ix);
        put(1, "Bern"); // the same key again: a plain rewrite adds nothing
        assertEquals(List.of(), ix.tree().lookup(b("Bern")));
        assertTrue(reindex(ix, 1));
        assertEquals(List.of(1L), ix.tree().lookup(b("Bern")));
        try (Transaction tx = tm.beginReadOnly()) {
            assertEquals(1, tx.lookup(ix, b("Bern")).size());
        }
        assertFalse(reindex(ix, 2), "no row");
    }

    @Test
    void reindexIntoAUniqueIndexClaimsKeysAndRefusesDuplicates() {
        put(1, "Bern");
        put(2, "Bern");
        put(3, "Zug");
        TableIndex ix = index("cities.i1", true);
        tm.addIndex(ix);
        assertTrue(reindex(ix, 1));
        assertTrue(reindex(ix, 3));
        TellException e = assertThrows(TellException.class, () -> reindex(ix, 2));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        e = assertThrows(TellException.class, () -> put(4, "Zug"));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code(), "a reindexed key is claimed");
    }

    @Test
    void onlyAKeptIndexCanBeFilled() {
        put(1, "Bern");
        TableIndex ix = index("cities.i1", false);
        try (Transaction tx = tm.begin()) {
            assertThrows(IllegalArgumentException.class, () -> tx.reindex(ix, TableIndex.ridKey(1)));
        }
    }

    @Test
    void aRemovedIndexIsNoLongerKept() {
        TableIndex ix = index("cities.i1", true);
        TableIndex other = index("cities.i2", false);
        tm.addIndex(ix);
        tm.addIndex(other);
        put(1, "Bern");
        tm.removeIndex(ix);
        assertEquals(List.of(other), tm.indexesOf(T));
        put(2, "Bern"); // no longer unique
        assertEquals(List.of(1L, 2L), other.tree().lookup(b("Bern")));
        tm.removeIndex(other);
        assertEquals(List.of(), tm.indexesOf(T));
    }
}
