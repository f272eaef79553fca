package io.tell.sql;

import static io.tell.sql.SqlCluster.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.TellException;
import io.tell.store.CountingRecordStore;
import io.tell.store.redis.RedisServerExtension;
import io.tell.txn.Isolation;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A point read by primary key on a node that has not met the key: the key's claim names the
 * row, and both come in one store call. The claim is only a hint: a row that does not hold the
 * key at the reader's snapshot (deleted, or the claim taken over by a newer row) sends the read
 * to the index. Two processing nodes over a real Redis, the reading node never having seen the
 * rows it reads.
 */
class ClaimedReadRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    private SqlCluster cluster;
    private SqlSession sa;
    private SqlSession sb;

    @BeforeEach
    void twoNodes() {
        cluster = new SqlCluster(REDIS, 2);
        sa = cluster.nodes.get(0).openSession();
        sb = cluster.nodes.get(1).openSession();
    }

    @AfterEach
    void close() {
        sa.close();
        sb.close();
        cluster.close();
    }

    @Test
    void aKeyTheNodeHasNotMetCostsOneStoreCall() {
        ProcessingNode b = cluster.nodes.get(1);
        run(sa, "CREATE TABLE known (id INT PRIMARY KEY, v INT)");
        for (int i = 0; i < 20; i++) {
            run(sa, "INSERT INTO known VALUES (" + i + ", " + (i * 10) + ")");
        }
        PreparedSql select = sb.prepare("SELECT v FROM known WHERE id = ?");
        assertArrayEquals(new Object[] {10}, one(sb, select, 1)); // node b's catalog and the index's inner nodes
        CountingRecordStore.Counts before = b.storeCounts();
        assertArrayEquals(new Object[] {70}, one(sb, select, 7));
        assertEquals(1, b.storeCounts().minus(before).reads(), "the claim and its row, the catalog's version along");
        before = b.storeCounts();
        assertArrayEquals(new Object[] {70}, one(sb, select, 7));
        assertEquals(1, b.storeCounts().minus(before).reads(), "the row, whose rid the node now knows");

        PreparedSql update = sb.prepare("UPDATE known SET v = v + 1 WHERE id = ?");
        before = b.storeCounts();
        assertEquals(1, count(sb, update, 8));
        assertEquals(1, b.storeCounts().minus(before).reads(), "an update by key reads as a select does");
        assertArrayEquals(new Object[] {81}, one(sa, sa.prepare("SELECT v FROM known WHERE id = ?"), 8));
    }

    @Test
    void aJoinOnKeysTheNodeHasNotMetReadsItsLookupsAheadAndNotAgainThroughClaims() {
        run(sa, "CREATE TABLE parts (id INT PRIMARY KEY, qty INT)");
        run(sa, "CREATE TABLE lines (o INT, n INT, part INT, PRIMARY KEY (o, n))");
        for (int from = 0; from < 1000; from += 100) {
            StringBuilder values = new StringBuilder();
            for (int i = from; i < from + 100; i++) {
                values.append(i == from ? "" : ", ").append('(').append(i).append(", ").append(i % 20).append(')');
            }
            run(sa, "INSERT INTO parts VALUES " + values);
        }
        StringBuilder lines = new StringBuilder();
        long count = 0;
        long sum = 0;
        for (int n = 0; n < 200; n++) {
            int part = (n * 37) % 1000;
            lines.append(n == 0 ? "" : ", ").append("(1, ").append(n).append(", ").append(part).append(')');
            if (part % 20 < 10) {
                count++;
                sum += part % 20;
            }
        }
        run(sa, "INSERT INTO lines VALUES " + lines);
        ProcessingNode b = cluster.nodes.get(1);
        PreparedSql join = sb.prepare("SELECT COUNT(*), SUM(p.qty) FROM lines l, parts p WHERE l.o = ? AND p.id = l.part AND p.qty < 10");
        CountingRecordStore.Counts before = b.storeCounts();
        try (SqlResult r = sb.execute(join, List.of(1), 0, 0)) {
            r.next();
            assertEquals(count, ((Number) r.row()[0]).longValue());
            assertEquals(sum, ((Number) r.row()[1]).longValue());
        }
        long reads = b.storeCounts().minus(before).reads();
        // The catalog, the trees' upper nodes, the outer leaves and rows, then per batch of
        // outer rows the inner leaves and rows: a few dozen at most, not one per outer row.
        assertTrue(reads < 40, "store reads of a first 200-row join on a node that met none of its keys: " + reads);
    }

    @Test
    void aClaimTakenOverAfterTheSnapshotLeavesTheReadToTheIndex() {
        run(sa, "CREATE TABLE moved (id INT PRIMARY KEY, v INT)");
        run(sa, "INSERT INTO moved VALUES (1, 10), (2, 20), (3, 30)");
        PreparedSql select = sb.prepare("SELECT v FROM moved WHERE id = ?");
        sb.setIsolation(Isolation.SNAPSHOT);
        sb.setAutoCommit(false);
        assertArrayEquals(new Object[] {10}, one(sb, select, 1)); // b's snapshot is taken

        // Key 2 moves to a new row (the claim now names it), key 3's row goes.
        run(sa, "DELETE FROM moved WHERE id = 2");
        run(sa, "INSERT INTO moved VALUES (2, 200)");
        run(sa, "DELETE FROM moved WHERE id = 3");
        assertArrayEquals(new Object[] {20}, one(sb, select, 2), "the row b's snapshot sees, through the index");
        assertArrayEquals(new Object[] {30}, one(sb, select, 3));
        sb.commit();

        assertArrayEquals(new Object[] {200}, one(sb, select, 2), "a new snapshot: the new row");
        try (SqlResult r = sb.execute(select, List.of(3), 0, 0)) {
            assertFalse(r.next(), "a deleted row's claim finds nothing");
        }
        try (SqlResult r = sb.execute(select, List.of(99), 0, 0)) {
            assertFalse(r.next(), "a key never inserted has no claim");
        }
        sb.commit();
    }

    @Test
    void aTransactionFindsItsOwnChangesNotTheClaims() {
        run(sa, "CREATE TABLE own (id INT PRIMARY KEY, v INT)");
        run(sa, "INSERT INTO own VALUES (5, 50), (6, 60), (7, 70)");
        PreparedSql select = sb.prepare("SELECT v FROM own WHERE id = ?");
        sb.setAutoCommit(false);
        assertEquals(1, count(sb, sb.prepare("DELETE FROM own WHERE id = ?"), 5));
        assertNone(sb, select, 5, "deleted by this transaction, its claim still naming the row");
        assertEquals(1, count(sb, sb.prepare("UPDATE own SET id = ? WHERE id = ?"), 66, 6));
        assertNone(sb, select, 6, "moved to another key by this transaction");
        assertArrayEquals(new Object[] {60}, one(sb, select, 66));
        assertEquals(1, count(sb, sb.prepare("UPDATE own SET id = ? WHERE id = ?"), 6, 66));
        assertArrayEquals(new Object[] {60}, one(sb, select, 6), "moved back");
        assertNone(sb, select, 66, "");
        sb.commit();
        PreparedSql fromA = sa.prepare("SELECT v FROM own WHERE id = ?");
        assertNone(sa, fromA, 5, "the delete committed");
        assertArrayEquals(new Object[] {60}, one(sa, fromA, 6));
        assertArrayEquals(new Object[] {70}, one(sa, fromA, 7));
    }

    @Test
    void aSerializableWriterFailsWhenARowItFoundByItsClaimChangedBeforeItCommitted() {
        run(sa, "CREATE TABLE doctors (id INT PRIMARY KEY, on_call INT)");
        run(sa, "INSERT INTO doctors VALUES (1, 1), (2, 1)");
        sb.setIsolation(Isolation.SERIALIZABLE);
        sb.setAutoCommit(false);
        assertArrayEquals(new Object[] {1}, one(sb, sb.prepare("SELECT on_call FROM doctors WHERE id = ?"), 1));
        run(sa, "UPDATE doctors SET on_call = 0 WHERE id = 1"); // commits while b's read stands
        assertEquals(1, count(sb, sb.prepare("UPDATE doctors SET on_call = 0 WHERE id = ?"), 2));
        TellException e = assertThrows(TellException.class, sb::commit, "b read doctor 1 through its claim");
        assertTrue(e.retriable(), "a serialization failure: " + e);
        assertArrayEquals(new Object[] {1}, one(sa, sa.prepare("SELECT on_call FROM doctors WHERE id = ?"), 2));
    }

    private static void assertNone(SqlSession s, PreparedSql q, Object key, String why) {
        try (SqlResult r = s.execute(q, List.of(key), 0, 0)) {
            assertFalse(r.next(), "no row for key " + key + ": " + why);
        }
    }

    private static Object[] one(SqlSession s, PreparedSql q, Object key) {
        try (SqlResult r = s.execute(q, List.of(key), 0, 0)) {
            if (!r.next()) {
                throw new AssertionError("no row for key " + key);
            }
            return r.row();
        }
    }

    private static long count(SqlSession s, PreparedSql update, Object... params) {
        try (SqlResult r = s.execute(update, List.of(params), 0, 0)) {
            return r.updateCount();
        }
    }
}
