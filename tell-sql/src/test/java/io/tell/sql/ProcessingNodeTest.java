package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.txn.Transaction;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ProcessingNodeTest {
    private static TableSpec accounts() {
        return TableSpec.builder("ACCOUNTS").notNull("ID", ColumnType.INTEGER).column("OWNER", ColumnType.varchar(20))
                .primaryKey("ID").build();
    }

    @Test
    void urlsParseOrFailClearly() {
        TellUrl mem = TellUrl.parse("jdbc:tell:mem:");
        assertTrue(mem.embedded() && !mem.shared());
        TellUrl named = TellUrl.parse("jdbc:tell:mem:shop");
        assertEquals("mem:shop", named.storeUrl());
        TellUrl redis = TellUrl.parse("jdbc:tell:redis://h1:7000,h2:7001?replicas=1&cm=c1:7400,c2:7400&timeoutMs=500");
        assertEquals("redis://h1:7000,h2:7001?replicas=1&timeoutMs=500", redis.storeUrl());
        assertEquals("c1:7400,c2:7400", redis.commitManagers());
        assertTrue(!redis.gc() && TellUrl.parse("jdbc:tell:redis://h:1?gc=on&cm=c:1").gc());
        TellUrl swept = TellUrl.parse("jdbc:tell:mem:shop?gc=on");
        assertTrue(swept.gc() && swept.shared());
        assertEquals("mem:shop", swept.storeUrl());
        for (String bad : new String[] {"jdbc:h2:mem:", "jdbc:tell:", "jdbc:tell:mem:bad name", "jdbc:tell:redis://h:1",
                "jdbc:tell:redis://?cm=c:1", "jdbc:tell:postgres://x",
                "jdbc:tell:mem:x?gc=maybe", "jdbc:tell:mem:x?cache=1", "jdbc:tell:mem:x?buffer=lots",
                "jdbc:tell:mem:x?bufferUnit=0", "jdbc:tell:redis://h:1?cm=c:1&bufferSize=x"}) {
            TellException e = assertThrows(TellException.class, () -> TellUrl.parse(bad), bad);
            assertSame(ErrorCode.BAD_CONFIGURATION, e.code());
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        assertEquals(new TellUrl.Buffer(io.tell.txn.Buffering.TRANSACTION, TellUrl.DEFAULT_BUFFER_UNIT, TellUrl.DEFAULT_BUFFER_SIZE),
                mem.buffer());
        assertEquals(new TellUrl.Buffer(null, TellUrl.DEFAULT_BUFFER_UNIT, TellUrl.DEFAULT_BUFFER_SIZE), redis.buffer(),
                "over a store the node takes the best buffering the store allows");
        assertEquals(new TellUrl.Buffer(io.tell.txn.Buffering.SYNCED, 10, 500),
                TellUrl.parse("jdbc:tell:redis://h:1?cm=c:1&buffer=synced&bufferUnit=10&bufferSize=500").buffer());
        assertEquals("redis://h:1", TellUrl.parse("jdbc:tell:redis://h:1?cm=c:1&buffer=shared").storeUrl());
        TellUrl secured = TellUrl.parse("jdbc:tell:rediss://app:pw@h:1?cm=c:1&cmSecretFile=/etc/tell/secret&tlsCa=/ca.pem&cmTlsCa=/cm-ca.pem");
        assertEquals("rediss://app:pw@h:1?tlsCa=/ca.pem", secured.storeUrl());
        assertEquals("/etc/tell/secret", secured.cmSecretFile());
        assertEquals("/cm-ca.pem", secured.cmTlsCa());
        assertThrows(TellException.class, () -> TellUrl.parse("jdbc:tell:redis://h:1?cm=c:1&cmTlsCa="));
        assertEquals("jdbc:tell:rediss://app:***@h:1?cm=c:1&cmSecretFile=/etc/tell/secret&tlsCa=/ca.pem&cmTlsCa=/cm-ca.pem",
                secured.toString());
        assertFalse(assertThrows(TellException.class, () -> TellUrl.parse("jdbc:tell:redis://:hunter2@h:1"))
                .getMessage().contains("hunter2"), "a message never shows the password");
        assertTrue(assertThrows(TellException.class, () -> TellUrl.parse("jdbc:tell:redis://h:1"))
                .getMessage().contains("?cm="), "says what is missing");
    }

    @Test
    void theFirstNodeDecidesWhetherAStoreKeepsVersionSets() {
        String plain = "jdbc:tell:mem:vs-" + UUID.randomUUID();
        try (ProcessingNode first = ProcessingNode.connect(plain)) {
            TellException e = assertThrows(TellException.class, () -> first.transactions().useBuffering(io.tell.txn.Buffering.SYNCED, 10, 100));
            assertSame(ErrorCode.BAD_CONFIGURATION, e.code());
            assertTrue(e.getMessage().contains("buffer=synced"), e.getMessage());
            first.transactions().useBuffering(io.tell.txn.Buffering.SHARED, 10, 100); // needs none
            assertSame(io.tell.txn.Buffering.TRANSACTION, first.transactions().useBestBuffering(10, 100),
                    "the default falls back where the store keeps no version sets");
        }
        try (ProcessingNode synced = ProcessingNode.connect("jdbc:tell:mem:?buffer=synced")) {
            SqlSession s = synced.openSession();
            s.execute(s.prepare("CREATE TABLE t (k INT PRIMARY KEY, v INT)"), java.util.List.of(), 0, 0).close();
            s.execute(s.prepare("INSERT INTO t VALUES (1, 10)"), java.util.List.of(), 0, 0).close();
            try (SqlResult r = s.execute(s.prepare("SELECT v FROM t WHERE k = 1"), java.util.List.of(), 0, 0)) {
                assertTrue(r.next());
                assertEquals(10, ((Number) r.row()[0]).intValue());
            }
            s.close();
        }
    }

    @Test
    void gcOnMakesTheNodeHostASweeperThatGoesWithIt() {
        ProcessingNode plain = ProcessingNode.connect("jdbc:tell:mem:");
        assertTrue(plain.sweeper().isEmpty(), "off by default");
        plain.close();
        ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:?gc=on");
        io.tell.gc.Sweeper sweeper = node.sweeper().orElseThrow();
        node.close();
        assertTrue(!sweeper.holdsLease() && !sweeper.runPass(), "closed with its node");
    }

    @Test
    void connectionsToANamedEmbeddedDatabaseShareOneNodeThatOutlivesThem() {
        String url = "jdbc:tell:mem:pn-" + UUID.randomUUID();
        ProcessingNode a = ProcessingNode.connect(url);
        ProcessingNode b = ProcessingNode.connect(url);
        assertSame(a, b);
        TableDef def = a.catalog().createTable(accounts(), false);
        try (Transaction tx = a.transactions().begin()) {
            a.table(def).insert(tx, new Object[] {1, "ann"});
            tx.commit();
        }
        a.close();
        b.close();
        ProcessingNode again = ProcessingNode.connect(url);
        assertSame(a, again, "one commit manager per embedded database, for the life of the JVM");
        TableDef seen = again.catalog().table("ACCOUNTS");
        try (Transaction tx = again.transactions().beginReadOnly()) {
            assertEquals("ann", again.table(seen).getByKey(tx, 1).orElseThrow().values()[1]);
        }
        again.close();
    }

    @Test
    void privateEmbeddedDatabasesAreSeparate() {
        try (ProcessingNode a = ProcessingNode.connect("jdbc:tell:mem:");
             ProcessingNode b = ProcessingNode.connect("jdbc:tell:mem:")) {
            assertNotSame(a, b);
            a.catalog().createTable(accounts(), false);
            assertTrue(b.catalog().tables().isEmpty());
        }
    }

    @Test
    void oneTableStorePerDefinition() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:")) {
            TableDef def = node.catalog().createTable(accounts(), false);
            assertSame(node.table(def), node.table(node.catalog().table("ACCOUNTS")));
        }
    }
}
