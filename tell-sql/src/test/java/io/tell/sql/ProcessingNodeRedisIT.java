package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.tell.cm.CmTls;
import io.tell.cm.CommitManagerServer;
import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.TestCertificates;
import io.tell.store.redis.RedisServerExtension;
import io.tell.txn.Transaction;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Processing nodes over a real Redis and a commit-manager service on loopback. */
class ProcessingNodeRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    @Test
    void twoNodesShareDdlAndCommittedData() {
        withCommitManager(base -> {
            // Different URL texts make different nodes, as two JVMs would be.
            try (ProcessingNode one = ProcessingNode.connect(base + "&timeoutMs=2000");
                 ProcessingNode two = ProcessingNode.connect(base + "&timeoutMs=2001")) {
                assertNotSame(one, two);
                try (ProcessingNode same = ProcessingNode.connect(base + "&timeoutMs=2000")) {
                    assertSame(one, same);
                }
                TableDef def = one.catalog().createTable(TableSpec.builder("T").notNull("ID", ColumnType.INTEGER)
                        .column("NAME", ColumnType.varchar(10)).primaryKey("ID").build(), false);
                try (Transaction tx = one.transactions().begin()) {
                    one.table(def).insert(tx, new Object[] {7, "seven"});
                    tx.commit();
                }
                TableDef seen = two.catalog().table("T");
                try (Transaction tx = two.transactions().beginReadOnly()) {
                    assertEquals("seven", two.table(seen).getByKey(tx, 7).orElseThrow().values()[1]);
                }
                try (Transaction tx = two.transactions().begin()) {
                    TellException e = assertThrows(TellException.class, () -> {
                        two.table(seen).insert(tx, new Object[] {7, "again"});
                        tx.commit();
                    });
                    assertSame(ErrorCode.DUPLICATE_KEY, e.code());
                }
            }
        });
    }

    @Test
    void schemasAreSharedAcrossNodesAndDroppingOneStopsTheOthersWriters() {
        withCommitManager(base -> {
            try (ProcessingNode one = ProcessingNode.connect(base + "&timeoutMs=3000");
                 ProcessingNode two = ProcessingNode.connect(base + "&timeoutMs=3001");
                 SqlSession a = one.openSession();
                 SqlSession b = two.openSession()) {
                run(b, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA"); // node two caches the catalog before the schema
                run(a, "CREATE SCHEMA shop");
                run(a, "CREATE TABLE shop.item (id INT PRIMARY KEY, n INT)");
                b.setSchemaPath(new SchemaPath(java.util.List.of("SHOP", "PUBLIC")));
                run(b, "INSERT INTO item VALUES (1, 10)");
                assertEquals(java.util.List.of(10), ints(a, "SELECT n FROM shop.item"));
                b.setAutoCommit(false);
                run(b, "INSERT INTO item VALUES (2, 20)");
                run(a, "DROP SCHEMA shop CASCADE");
                TellException e = assertThrows(TellException.class, b::commit);
                assertSame(ErrorCode.TX_CONFLICT, e.code());
                b.setAutoCommit(true);
                assertSame(ErrorCode.SQL_INVALID, assertThrows(TellException.class, () -> run(b, "SELECT n FROM item")).code());
                assertEquals(java.util.List.of("PUBLIC"), two.catalog().snapshot().schemas().stream().toList());
            }
        });
    }

    /** A durable commit-manager service on {@code REDIS} for {@code test}, given the node URL that reaches both. */
    private static void withCommitManager(java.util.function.Consumer<String> test) {
        try (RecordStore cmStore = RecordStores.open(REDIS.url());
             LocalCommitManager cm = LocalCommitManager.open(cmStore, LocalCommitManager.Options.durableService());
             CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0)) {
            test.accept("jdbc:tell:" + REDIS.url() + "?cm=127.0.0.1:" + server.port());
        }
    }

    private static void run(SqlSession s, String sql) {
        s.execute(s.prepare(sql), java.util.List.of(), 0, 0);
    }

    private static java.util.List<Integer> ints(SqlSession s, String sql) {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        try (SqlResult r = s.execute(s.prepare(sql), java.util.List.of(), 0, 0)) {
            while (r.next()) {
                out.add(((Number) r.row()[0]).intValue());
            }
        }
        return out;
    }

    @Test
    void cmTlsCaTalksToATlsCommitManager(@TempDir Path dir) throws Exception {
        TestCertificates certs = TestCertificates.make(dir);
        try (RecordStore cmStore = RecordStores.open(REDIS.url());
             LocalCommitManager cm = LocalCommitManager.open(cmStore, LocalCommitManager.Options.durableService());
             CommitManagerServer server = CommitManagerServer.start(cm, "127.0.0.1", 0, null, CmTls.server(certs.cert(), certs.key()))) {
            String base = "jdbc:tell:" + REDIS.url() + "?cm=127.0.0.1:" + server.port();
            try (ProcessingNode node = ProcessingNode.connect(base + "&cmTlsCa=" + certs.ca());
                 Transaction tx = node.transactions().begin()) {
                tx.commit();
            }
        }
    }
}
