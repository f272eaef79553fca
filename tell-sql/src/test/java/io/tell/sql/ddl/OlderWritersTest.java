package io.tell.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.store.RecordStores;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The wait of a schema change for the writers that began before it, with two commit managers. */
class OlderWritersTest {
    @Test
    @Timeout(60)
    void aWriterOfAnotherCommitManagerWithAHigherTidIsWaitedFor() throws Exception {
        String url = "mem:older-" + UUID.randomUUID();
        LocalCommitManager.Options options = new LocalCommitManager.Options(10, true, Duration.ofHours(1));
        try (LocalCommitManager first = LocalCommitManager.open(RecordStores.open(url), options);
             LocalCommitManager second = LocalCommitManager.open(RecordStores.open(url), options);
             TransactionManager ddlNode = new TransactionManager(RecordStores.open(url), first, "ddl");
             TransactionManager other = new TransactionManager(RecordStores.open(url), second, "other")) {
            // The first manager reserves its range before the second: the second's writer holds a
            // tid above any marker the first hands out, though it began before the schema change.
            try (Transaction t = ddlNode.begin()) {
                t.commit();
            }
            Transaction older = other.begin();
            CompletableFuture<Void> waited = CompletableFuture.runAsync(() -> OlderWriters.await(ddlNode));
            Thread.sleep(300);
            assertFalse(waited.isDone(), "the schema change went on while a writer that began before it runs (tid "
                    + older.tid() + ")");
            older.commit();
            waited.get(30, TimeUnit.SECONDS);
            assertTrue(waited.isDone());
        }
    }
}
