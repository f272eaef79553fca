package io.tell.cm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.NodeLease;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

class ClusterStatusTest {
    @Test
    void showsLiveAndSilentMembersAndNodes() throws Exception {
        String url = "mem:status-" + UUID.randomUUID();
        RecordStore store = RecordStores.open(url);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        LocalCommitManager.Options options = new LocalCommitManager.Options(10, true, Duration.ofSeconds(5)); // long: the crashed one is not removed meanwhile
        try (LocalCommitManager alive = LocalCommitManager.open(RecordStores.open(url), options)) {
            LocalCommitManager crashed = LocalCommitManager.open(RecordStores.open(url), options);
            NodeLease lease = NodeLease.acquire(store, "pn-a", Duration.ofMillis(400), () -> 7, timer);
            alive.committed(alive.start(false).tid());
            crashed.crash();
            ClusterStatus status = ClusterStatus.read(store, Duration.ofSeconds(2));
            assertEquals(2, status.members().size(), status.format());
            assertEquals(1, status.members().stream().filter(ClusterStatus.Member::alive).count(), status.format());
            for (ClusterStatus.Member m : status.members()) {
                assertEquals(m.id() == alive.incarnation(), m.alive(), status.format());
            }
            assertEquals(1, status.nodes().size());
            assertEquals(lease.id(), status.nodes().get(0).id());
            assertTrue(status.nodes().get(0).alive(), status.format());
            assertTrue(status.lav() <= 7, status.format());
            assertTrue(status.format().contains("commit managers (2)"), status.format());
            lease.close();
        } finally {
            timer.shutdownNow();
        }
    }
}
