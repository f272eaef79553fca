package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A node's meters in Micrometer's global registry: they count what the node does and leave with it. */
class NodeMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @BeforeEach
    void addRegistry() {
        Metrics.addRegistry(registry);
    }

    @AfterEach
    void removeRegistry() {
        Metrics.removeRegistry(registry);
        registry.close();
    }

    @Test
    void aNodeCountsItsWorkAndRemovesItsMetersWhenClosed() {
        String nodeId;
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            nodeId = node.transactions().nodeId();
            SqlSession s = node.openSession();
            assertEquals(1.0, registry.get("tell.sessions").tag("node", nodeId).gauge().value());
            s.execute(s.prepare("CREATE TABLE t (k INT PRIMARY KEY, v INT)"), List.of(), 0, 0).close();
            PreparedSql insert = s.prepare("INSERT INTO t VALUES (?, ?)");
            for (int i = 0; i < 5; i++) {
                s.execute(insert, List.of(i, i), 0, 0).close();
            }
            for (int i = 0; i < 4; i++) {
                s.prepare("SELECT v FROM t WHERE k = ?"); // planned once, then found in the node's cache
            }
            s.execute(s.prepare("SELECT v FROM t WHERE k = 3"), List.of(), 0, 0).close();
            assertEquals(5, registry.get("tell.statements").tag("node", nodeId).tag("kind", "dml").timer().count());
            assertEquals(1, registry.get("tell.statements").tag("node", nodeId).tag("kind", "query").timer().count());
            assertTrue(registry.get("tell.transactions").tag("node", nodeId).tag("outcome", "committed")
                    .functionCounter().count() >= 5);
            assertTrue(registry.get("tell.store.calls").tag("node", nodeId).tag("op", "write").functionCounter().count() >= 5);
            assertTrue(registry.get("tell.store.bytes").tag("node", nodeId).tag("direction", "sent").functionCounter().count()
                    > 5 * 8, "five rows and more were sent");
            assertTrue(registry.get("tell.store.bytes").tag("node", nodeId).tag("direction", "received").functionCounter().count() > 0);
            assertTrue(registry.get("tell.cm.calls").tag("node", nodeId).tag("op", "start").functionCounter().count() >= 5);
            assertTrue(registry.get("tell.plan.cache").tag("node", nodeId).tag("result", "hit").functionCounter().count() >= 3);
            org.junit.jupiter.api.Assertions.assertThrows(io.tell.error.TellException.class,
                    () -> s.execute(insert, List.of(1, 1), 0, 0).close());
            assertEquals(1, registry.get("tell.statements.failed").tag("node", nodeId).tag("code", "DUPLICATE_KEY").counter().count());
            for (int i = 5; i < 400; i++) { // enough rows for inner nodes above the leaves
                s.execute(insert, List.of(i, i), 0, 0).close();
            }
            assertTrue(registry.get("tell.tree.cache").tag("node", nodeId).tag("result", "hit").functionCounter().count() > 0);
            s.close();
            assertEquals(0.0, registry.get("tell.sessions").tag("node", nodeId).gauge().value());
        }
        assertNull(registry.find("tell.store.calls").tag("node", nodeId).functionCounter(), "meters of a closed node stay behind");
    }

    @Test
    void aNodeWithASweeperCountsItsPassesAndDeletes() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:metered?gc=on")) {
            String nodeId = node.transactions().nodeId();
            assertTrue(node.sweeper().orElseThrow().runPass());
            assertTrue(registry.get("tell.gc.passes").tag("node", nodeId).functionCounter().count() >= 1);
            for (String kind : List.of("rows", "index_entries", "claims", "log_entries", "fences", "dead_records", "tree_records")) {
                assertEquals(0.0, registry.get("tell.gc.deleted").tag("node", nodeId).tag("kind", kind).functionCounter().count(), kind);
            }
        }
    }
}
