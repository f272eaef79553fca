package io.tell.txn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.tell.cm.LocalCommitManager;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A scan with a limit through a run of entries under one key that is longer than a page and
 * holds few visible rows (rows deleted, or a table's rid tree, whose entries all share one key)
 * must page past the run, not re-read its start for ever.
 */
class LimitedScanTest {
    private static final String T = "things";

    @Test
    void aLimitedScanGetsPastALongRunOfOneKey() {
        RecordStore store = RecordStores.open("mem:");
        try (LocalCommitManager cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
             TransactionManager tm = new TransactionManager(store, cm, "pn")) {
            TableIndex byColour = new TableIndex(T, BTree.open(store, BTreeConfig.of("things.colour", false).withNodeCapacity(8)),
                    false, row -> row);
            tm.addIndex(byColour);
            tm.run(1, tx -> {
                for (int rid = 1; rid <= 200; rid++) {
                    tx.insertNew(T, TableIndex.ridKey(rid), b("red"));
                }
                return null;
            });
            // All but the last two rows go. An older reader still sees them, so their entries stay
            // (no reader may remove them yet), invisible to a new snapshot.
            Transaction older = tm.beginReadOnly();
            tm.run(1, tx -> {
                for (int rid = 1; rid <= 198; rid++) {
                    tx.delete(T, TableIndex.ridKey(rid));
                }
                return null;
            });
            List<IndexedRow> found = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> tm.run(1,
                    tx -> tx.scanIndex(byColour, ScanRange.key(b("red")), 5)), "the scan never ended");
            assertEquals(List.of(199L, 200L), found.stream().map(IndexedRow::rid).toList());
            older.commit();
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
