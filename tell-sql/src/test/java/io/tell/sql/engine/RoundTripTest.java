package io.tell.sql.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.tell.sql.ColumnType;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.TableSpec;
import io.tell.store.CountingRecordStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Store and commit-manager round trips per SQL statement, counted exactly (warm caches, auto-commit).
 * The numbers are the design's cost model for docs/benchmarks.md.
 */
class RoundTripTest {
    @Test
    void pointSelectAndOneRowUpdate() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            node.catalog().createTable(TableSpec.builder("T").notNull("ID", ColumnType.INTEGER)
                    .column("V", ColumnType.INTEGER).primaryKey("ID").build(), false);
            PreparedSql insert = s.prepare("INSERT INTO t VALUES (?, ?)");
            for (int i = 0; i < 50; i++) {
                s.execute(insert, List.of(i, i), 0, 0).close();
            }
            PreparedSql select = s.prepare("SELECT v FROM t WHERE id = ?");
            PreparedSql update = s.prepare("UPDATE t SET v = ? WHERE id = ?");
            s.execute(select, List.of(1), 0, 0).close(); // warm the index's inner-node cache
            s.execute(select, List.of(7), 0, 0).close(); // and learn where key 7's row is
            s.execute(update, List.of(5, 2), 0, 0).close();

            Cost sel = measure(node, () -> {
                try (SqlResult r = s.execute(select, List.of(7), 0, 0)) {
                    r.next();
                    assertEquals(7, r.row()[0]);
                }
            });
            // store: the row, the catalog's version read along with it (the node knows the key's rid
            // from before, so no index leaf); CM: start and end (a reader holds lav back until it ends)
            assertEquals(new Cost(1, 0, 2), sel, "point select");

            Cost upd = measure(node, () -> {
                try (SqlResult r = s.execute(update, List.of(70, 7), 0, 0)) {
                    assertEquals(1, r.updateCount());
                }
            });
            // the row with the catalog's version, then commit: log write, batch apply (+1 async log
            // delete); CM: start, committed
            System.out.println("point select " + sel + ", one-row update " + upd);
            assertEquals(2, upd.cmCalls(), "update CM calls");
            assertEquals(1, upd.reads(), "update reads");

            PreparedSql add = s.prepare("INSERT INTO t VALUES (?, ?)");
            s.execute(add, List.of(100, 1), 0, 0).close(); // the primary key's rightmost leaf in the cache
            Cost ins = measure(node, () -> s.execute(add, List.of(101, 1), 0, 0).close());
            // the catalog's check after the statement (no read of records carried it); log write
            // carrying the primary key's new entry (its rightmost leaf as this node wrote it last:
            // no read, chained to the log write), the row, the new key's claim (insert-if-absent,
            // no read); CM: start, committed
            System.out.println("one-row insert " + ins);
            assertEquals(new Cost(1, 3, 2), ins, "one-row insert");

            // The node learned where the keys it inserted, or a short scan found, live.
            Cost readBack = measure(node, () -> {
                try (SqlResult r = s.execute(select, List.of(101), 0, 0)) {
                    r.next();
                    assertEquals(1, r.row()[0]);
                }
            });
            assertEquals(new Cost(1, 0, 2), readBack, "point select of a row this node inserted: the row");

            // A row read back by its key in the transaction that inserted it (a parent row's
            // foreign-key check, an UPDATE after an INSERT): from the transaction's own writes.
            s.setAutoCommit(false);
            s.execute(add, List.of(102, 2), 0, 0).close();
            Cost ownRow = measure(node, () -> {
                try (SqlResult r = s.execute(select, List.of(102), 0, 0)) {
                    r.next();
                    assertEquals(2, r.row()[0]);
                }
            });
            s.commit();
            s.setAutoCommit(true);
            assertEquals(new Cost(0, 0, 0), ownRow, "point select of a row this transaction inserted");
            PreparedSql scan = s.prepare("SELECT id FROM t WHERE id BETWEEN ? AND ? ORDER BY id FETCH FIRST 1 ROWS ONLY");
            try (SqlResult r = s.execute(scan, List.of(30, 40), 0, 0)) {
                r.next();
                assertEquals(30, r.row()[0]);
            }
            Cost scanned = measure(node, () -> s.execute(update, List.of(31, 30), 0, 0).close());
            assertEquals(1, scanned.reads(), "update by key of a row a scan found: the row, no index leaf");

            // An index added later (as loaders do after a bulk load) keeps what the node knows of the rows' rids.
            s.execute(s.prepare("CREATE INDEX t_v ON t (v)"), List.of(), 0, 0).close();
            s.execute(select, List.of(7), 0, 0).close(); // planned under the new catalog
            Cost afterDdl = measure(node, () -> {
                try (SqlResult r = s.execute(select, List.of(101), 0, 0)) {
                    r.next();
                    assertEquals(1, r.row()[0]);
                }
            });
            assertEquals(new Cost(1, 0, 2), afterDdl, "point select after CREATE INDEX: the row, no index leaf");
        }
    }

    @Test
    void indexNestedLoopJoinReadsItsLookupsAheadInBatches() {
        try (ProcessingNode node = ProcessingNode.connect("jdbc:tell:mem:");
             SqlSession s = node.openSession()) {
            node.catalog().createTable(TableSpec.builder("P").notNull("ID", ColumnType.INTEGER)
                    .column("QTY", ColumnType.INTEGER).primaryKey("ID").build(), false);
            node.catalog().createTable(TableSpec.builder("L").notNull("O", ColumnType.INTEGER)
                    .notNull("N", ColumnType.INTEGER).column("P_ID", ColumnType.INTEGER).primaryKey("O", "N").build(), false);
            PreparedSql part = s.prepare("INSERT INTO p VALUES (?, ?)");
            PreparedSql line = s.prepare("INSERT INTO l VALUES (?, ?, ?)");
            for (int i = 0; i < 1_000; i++) {
                s.execute(part, List.of(i, i % 20), 0, 0).close();
            }
            for (int n = 0; n < 200; n++) {
                s.execute(line, List.of(1, n, (n * 37) % 1_000), 0, 0).close();
            }
            PreparedSql join = s.prepare("SELECT COUNT(*), SUM(p.qty) FROM l, p WHERE l.o = ? AND p.id = l.p_id AND p.qty < 10");
            s.execute(join, List.of(1), 0, 0).close(); // warm the caches
            long expectedCount = 0;
            long expectedSum = 0;
            for (int n = 0; n < 200; n++) {
                int qty = ((n * 37) % 1_000) % 20;
                if (qty < 10) {
                    expectedCount++;
                    expectedSum += qty;
                }
            }
            long[] got = new long[2];
            Cost cost = measure(node, () -> {
                try (SqlResult r = s.execute(join, List.of(1), 0, 0)) {
                    r.next();
                    got[0] = ((Number) r.row()[0]).longValue();
                    got[1] = ((Number) r.row()[1]).longValue();
                }
            });
            assertEquals(expectedCount, got[0]);
            assertEquals(expectedSum, got[1]);
            System.out.println("join of 200 outer rows to their parts by primary key: " + cost);
            // the 4 outer leaves (200 entries, 64 a leaf: the first, then read ahead 2 and 1) + outer
            // rows with the catalog's version, then for each of the two batches of outer rows (128 + 72) the inner rows:
            // the node knows their rids from the first run, so no inner leaves (9 with them; one
            // lookup at a time it was 406).
            assertEquals(6, cost.reads(), "reads of a 200-row index nested-loop join");

            // Parts deleted and inserted again live at new rids: the remembered ones are stale, and
            // the lookups find the new rows through the index.
            s.execute(s.prepare("DELETE FROM p WHERE MOD(id, 3) = 0"), List.of(), 0, 0).close();
            long movedCount = 0;
            long movedSum = 0;
            for (int i = 0; i < 1_000; i += 3) {
                s.execute(part, List.of(i, 7), 0, 0).close();
            }
            for (int n = 0; n < 200; n++) {
                int id = (n * 37) % 1_000;
                int qty = id % 3 == 0 ? 7 : id % 20;
                if (qty < 10) {
                    movedCount++;
                    movedSum += qty;
                }
            }
            try (SqlResult r = s.execute(join, List.of(1), 0, 0)) {
                r.next();
                assertEquals(movedCount, ((Number) r.row()[0]).longValue(), "rows of parts at new rids are found");
                assertEquals(movedSum, ((Number) r.row()[1]).longValue());
            }
        }
    }

    record Cost(long reads, long writes, long cmCalls) {
    }

    private static Cost measure(ProcessingNode node, Runnable r) {
        CountingRecordStore.Counts before = node.storeCounts();
        long cm = node.commitManagerCalls();
        r.run();
        CountingRecordStore.Counts d = node.storeCounts().minus(before);
        return new Cost(d.reads() + d.scans(), d.writes() + d.increments(), node.commitManagerCalls() - cm);
    }
}
