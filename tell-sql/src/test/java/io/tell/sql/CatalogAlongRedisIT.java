package io.tell.sql;

import static io.tell.sql.SqlCluster.run;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.store.CountingRecordStore;
import io.tell.store.redis.RedisServerExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transaction's first statement runs on the catalog its node has cached and checks it with
 * its first read of records (no round trip of its own). When another node's DDL has replaced
 * that catalog the statement is run again, unseen, on the new one: its results and writes are
 * those of the new catalog, never of the old. Two processing nodes over a real Redis.
 */
class CatalogAlongRedisIT {
    @RegisterExtension
    static final RedisServerExtension REDIS = new RedisServerExtension();

    @Test
    void aQueryOnAnOutdatedCatalogRunsAgainOnTheNewOne() {
        try (SqlCluster cluster = new SqlCluster(REDIS, 2);
             SqlSession sa = cluster.nodes.get(0).openSession();
             SqlSession sb = cluster.nodes.get(1).openSession()) {
            ProcessingNode a = cluster.nodes.get(0);
            run(sa, "CREATE TABLE t (id INT PRIMARY KEY, v INT)");
            run(sa, "INSERT INTO t VALUES (7, 70)");
            PreparedSql select = sa.prepare("SELECT * FROM t WHERE id = ?");
            assertArrayEquals(new Object[] {7, 70}, one(sa, select, 7));
            long reads = a.storeCounts().reads();
            assertArrayEquals(new Object[] {7, 70}, one(sa, select, 7));
            assertEquals(1, a.storeCounts().reads() - reads, "the row, the catalog's version riding along");

            run(sb, "ALTER TABLE t ADD COLUMN w INT DEFAULT 5");
            run(sb, "UPDATE t SET w = 9 WHERE id = 7");
            assertArrayEquals(new Object[] {7, 70, 9}, one(sa, select, 7), "node a sees the column node b added");

            run(sb, "DROP TABLE t");
            run(sb, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            run(sb, "INSERT INTO t VALUES (7, 'new')");
            assertArrayEquals(new Object[] {7, "new"}, one(sa, select, 7), "node a reads the new table, not the dropped one");
        }
    }

    @Test
    void aWriteOnAnOutdatedCatalogRunsAgainOnTheNewOne() {
        try (SqlCluster cluster = new SqlCluster(REDIS, 2);
             SqlSession sa = cluster.nodes.get(0).openSession();
             SqlSession sb = cluster.nodes.get(1).openSession()) {
            ProcessingNode a = cluster.nodes.get(0);
            run(sa, "CREATE TABLE w (id INT PRIMARY KEY, v INT)");
            run(sa, "INSERT INTO w VALUES (7, 70), (8, 80)");
            PreparedSql add = sa.prepare("UPDATE w SET v = v + 1 WHERE id = ?");
            assertEquals(1, count(sa, add, 7));
            CountingRecordStore.Counts before = a.storeCounts();
            assertEquals(1, count(sa, add, 7));
            assertEquals(1, a.storeCounts().minus(before).reads(), "the row, the catalog's version riding along");

            run(sb, "DROP TABLE w");
            run(sb, "CREATE TABLE w (id INT PRIMARY KEY, v INT)");
            run(sb, "INSERT INTO w VALUES (7, 1), (8, 1)");
            sa.setAutoCommit(false);
            assertEquals(1, count(sa, add, 7), "the first statement of the transaction, on the new table");
            assertEquals(1, count(sa, add, 8));
            sa.commit();
            assertArrayEquals(new Object[] {2}, one(sb, sb.prepare("SELECT v FROM w WHERE id = ?"), 7));
            assertArrayEquals(new Object[] {2}, one(sb, sb.prepare("SELECT v FROM w WHERE id = ?"), 8));
        }
    }

    private static Object[] one(SqlSession s, PreparedSql q, Object key) {
        try (SqlResult r = s.execute(q, List.of(key), 0, 0)) {
            r.next();
            return r.row();
        }
    }

    private static long count(SqlSession s, PreparedSql update, Object key) {
        try (SqlResult r = s.execute(update, List.of(key), 0, 0)) {
            return r.updateCount();
        }
    }
}
