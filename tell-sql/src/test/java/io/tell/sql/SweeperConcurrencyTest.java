package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.gc.Sweeper;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.KeyRange;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.StoredRecord;
import io.tell.txn.TableIndex;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Writers on two processing nodes insert, update (balance and indexed group) and delete rows
 * while a sweeper passes again and again; no update may be lost and no live row may drop out of
 * an index. Each writer owns its rows, so its model is exact. Seeded: {@code -Dtell.seed=N}.
 */
class SweeperConcurrencyTest {
    private static final int WRITERS = 4;
    private static final int OPS = Integer.getInteger("tell.gc.ops", 250);
    private static final int GROUPS = 4;

    /** A writer's view of one of its rows. */
    private record Row(long rid, int grp, int bal) {
    }

    @Test
    void writersRacingTheSweeperNeverLoseAnUpdate() throws Exception {
        long seed = Long.getLong("tell.seed", System.nanoTime());
        String why = "seed " + seed + " (-Dtell.seed=" + seed + ")";
        System.out.println("SweeperConcurrencyTest " + why);
        try (RecordStore store = RecordStores.open("mem:");
             LocalCommitManager cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
             TransactionManager tm1 = new TransactionManager(store, cm, "pn-1");
             TransactionManager tm2 = new TransactionManager(store, cm, "pn-2")) {
            Catalog catalog = new Catalog(store);
            catalog.createTable(TableSpec.builder("ACC").notNull("ID", ColumnType.INTEGER)
                    .column("GRP", ColumnType.INTEGER).column("BAL", ColumnType.INTEGER).primaryKey("ID")
                    .index("ACC_BY_GRP", false, "GRP").build(), false);
            TableDef def = catalog.table("ACC");
            TableStore[] tables = {new TableStore(tm1, def), new TableStore(tm2, def)};
            TransactionManager[] tms = {tm1, tm2};
            List<Map<Integer, Row>> models = new ArrayList<>();
            Map<String, String> failures = new ConcurrentHashMap<>();
            AtomicBoolean stop = new AtomicBoolean();
            ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 1);
            try (Sweeper sweeper = new Sweeper(store, tm1, new CatalogSweepScope(catalog),
                    SweeperTest.FAST, "pn-1")) {
                Future<?> sweeping = pool.submit(() -> {
                    while (!stop.get()) {
                        sweeper.runPass();
                    }
                });
                List<Future<?>> writers = new ArrayList<>();
                for (int w = 0; w < WRITERS; w++) {
                    Map<Integer, Row> model = new HashMap<>();
                    models.add(model);
                    int id0 = w * 1_000_000;
                    Random random = new Random(seed + w);
                    TableStore t = tables[w % 2];
                    TransactionManager tm = tms[w % 2];
                    writers.add(pool.submit(() -> write(tm, t, model, id0, random, failures)));
                }
                for (Future<?> f : writers) {
                    f.get();
                }
                stop.set(true);
                sweeping.get();
                assertTrue(failures.isEmpty(), why + ": " + failures);
                assertTrue(sweeper.runPass() && sweeper.runPass(), why);
                check(store, tm2, tables[1], models, why);
                assertTrue(sweeper.stats().rowsDeleted() > 0, why);
            } finally {
                stop.set(true);
                pool.shutdownNow();
            }
        }
    }

    private static void write(TransactionManager tm, TableStore t, Map<Integer, Row> model, int id0, Random random,
                              Map<String, String> failures) {
        int next = id0;
        for (int op = 0; op < OPS; op++) {
            List<Integer> ids = new ArrayList<>(new TreeSet<>(model.keySet()));
            int kind = ids.isEmpty() ? 0 : random.nextInt(10);
            if (kind < 4) {
                int id = next++;
                int grp = random.nextInt(GROUPS);
                long rid = tm.run(50, tx -> t.insert(tx, new Object[] {id, grp, 0}));
                model.put(id, new Row(rid, grp, 0));
                continue;
            }
            int id = ids.get(random.nextInt(ids.size()));
            Row row = model.get(id);
            if (kind < 7) {
                tm.run(50, tx -> t.delete(tx, row.rid()));
                model.remove(id);
            } else {
                int grp = random.nextBoolean() ? row.grp() : random.nextInt(GROUPS);
                int add = 1 + random.nextInt(10);
                Object[] seen = tm.run(50, tx -> {
                    Object[] current = t.get(tx, row.rid());
                    if (current != null) {
                        t.update(tx, row.rid(), new Object[] {id, grp, (Integer) current[2] + add});
                    }
                    return current;
                });
                if (seen == null || (Integer) seen[1] != row.grp() || (Integer) seen[2] != row.bal()) {
                    failures.put("row " + id, "expected " + row + ", read " + (seen == null ? null : List.of(seen)));
                    return;
                }
                model.put(id, new Row(row.rid(), grp, row.bal() + add));
            }
        }
    }

    /** Every live row exactly as its writer left it, found by key and by group; nothing else stored. */
    private static void check(RecordStore store, TransactionManager tm, TableStore t, List<Map<Integer, Row>> models,
                              String why) {
        Map<Integer, Row> all = new HashMap<>();
        models.forEach(all::putAll);
        Transaction tx = tm.beginReadOnly();
        Map<Integer, Set<Integer>> byGroup = new HashMap<>();
        all.forEach((id, row) -> {
            Object[] values = t.getByKey(tx, id).orElseThrow(() -> new AssertionError(why + ": row " + id + " lost")).values();
            assertEquals(List.of(id, row.grp(), row.bal()), List.of(values), why + ": row " + id);
            byGroup.computeIfAbsent(row.grp(), g -> new TreeSet<>()).add(id);
        });
        for (int g = 0; g < GROUPS; g++) {
            Set<Integer> found = new TreeSet<>();
            t.lookup(tx, "ACC_BY_GRP", g).forEach(r -> found.add((Integer) r.values()[0]));
            assertEquals(byGroup.getOrDefault(g, Set.of()), found, why + ": group " + g + " through the index");
        }
        assertEquals(all.size(), t.scanAll(tx).size(), why);
        tx.commit();
        Set<Long> liveRids = new HashSet<>();
        all.values().forEach(r -> liveRids.add(r.rid()));
        Set<Long> stored = new HashSet<>();
        for (StoredRecord r : store.scan(t.def().rowDomain(), KeyRange.ALL, Integer.MAX_VALUE)) {
            stored.add(TableIndex.ridOf(r.key()));
        }
        assertEquals(liveRids, stored, why + ": the table holds exactly the live rows");
        for (String tree : t.def().treeNames()) {
            Set<Long> indexed = new HashSet<>();
            for (IndexEntry e : BTree.open(store, BTreeConfig.of(tree, false)).scan(ScanRange.ALL, false, Integer.MAX_VALUE)) {
                indexed.add(e.rid());
            }
            assertTrue(indexed.containsAll(liveRids), why + ": every live row is in " + tree);
            assertTrue(liveRids.containsAll(indexed), why + ": no entry of a gone row is left in " + tree);
        }
        Set<Long> claimed = new HashSet<>();
        for (StoredRecord c : store.scan(TableIndex.claimDomainOf(t.def().treeNames().get(0)), KeyRange.ALL, Integer.MAX_VALUE)) {
            claimed.add(TableIndex.ridOf(c.value()));
        }
        assertEquals(liveRids, claimed, why + ": the primary key's claims are exactly the live rows'");
    }
}
