package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.gc.SweepOptions;
import io.tell.gc.Sweeper;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.ScanRange;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.StoredRecord;
import io.tell.store.WriteOp;
import io.tell.txn.TableIndex;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import io.tell.txn.GarbageLog;
import io.tell.index.internal.NodeStore;
import io.tell.index.internal.TreeValidator;
import io.tell.txn.Reverter;
import io.tell.txn.TxLog;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The sweeper over SQL tables ({@code mem} here, Redis in {@link SweeperRedisIT}): what it
 * reclaims, and what it must leave while someone may still need it. Passes are run by hand.
 */
class SweeperTest {
    /** No pacing to speak of, no grace: tests decide when passes run. */
    static final SweepOptions FAST = SweepOptions.defaults().withRecordsPerSecond(1_000_000).withGrace(Duration.ZERO)
            .withPassInterval(Duration.ZERO).withPageSize(7);

    protected RecordStore openStore() {
        return RecordStores.open("mem:");
    }

    private RecordStore store;
    private LocalCommitManager cm;
    private TransactionManager tm;
    private Catalog catalog;
    private Sweeper sweeper;

    @BeforeEach
    void setUp() {
        store = openStore();
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm = new TransactionManager(store, cm, "pn-1");
        catalog = new Catalog(store);
        sweeper = new Sweeper(store, tm, new CatalogSweepScope(catalog), FAST, "pn-1");
    }

    @AfterEach
    void tearDown() {
        sweeper.close();
        tm.close();
        cm.close();
        store.close();
    }

    private TableStore createItems(String name) {
        catalog.createTable(TableSpec.builder(name).notNull("ID", ColumnType.INTEGER).column("GRP", ColumnType.INTEGER)
                .column("EMAIL", ColumnType.varchar(20)).primaryKey("ID").unique("EMAIL")
                .index(name + "_BY_GRP", false, "GRP").build(), false);
        return new TableStore(tm, catalog.table(name));
    }

    private static Object[] item(int id, int grp) {
        return new Object[] {id, grp, "m" + id + "@x"};
    }

    private List<Long> insert(TableStore t, int from, int to) {
        return tm.run(3, tx -> {
            List<Long> rids = new ArrayList<>();
            for (int id = from; id < to; id++) {
                rids.add(t.insert(tx, item(id, id % 3)));
            }
            return rids;
        });
    }

    private Set<Long> ridsIn(String domain) {
        Set<Long> out = new HashSet<>();
        for (StoredRecord r : store.scan(domain, KeyRange.ALL, Integer.MAX_VALUE)) {
            out.add(TableIndex.ridOf(r.key()));
        }
        return out;
    }

    private Set<Long> ridsIndexedBy(String tree) {
        Set<Long> out = new HashSet<>();
        for (IndexEntry e : BTree.open(store, BTreeConfig.of(tree, false)).scan(ScanRange.ALL, false, Integer.MAX_VALUE)) {
            out.add(e.rid());
        }
        return out;
    }

    @Test
    void deletedRowsLeaveNeitherRecordsNorIndexEntries() {
        TableStore t = createItems("ITEMS");
        List<Long> rids = insert(t, 0, 40);
        // Some rows change their indexed key before they go: their old entries are stale ones the
        // row's record no longer describes, and must go too.
        tm.run(3, tx -> {
            for (int i = 0; i < 10; i++) {
                t.update(tx, rids.get(i), new Object[] {i, 7, "changed" + i + "@x"});
            }
            return null;
        });
        Set<Long> deleted = new HashSet<>(rids.subList(0, 25));
        tm.run(3, tx -> {
            deleted.forEach(rid -> assertTrue(t.delete(tx, rid)));
            return null;
        });
        assertTrue(ridsIn(t.def().rowDomain()).containsAll(deleted), "deleted rows keep their records until swept");

        assertTrue(sweeper.runPass());

        Set<Long> kept = new HashSet<>(rids.subList(25, 40));
        assertEquals(kept, ridsIn(t.def().rowDomain()));
        for (String tree : t.def().treeNames()) {
            assertEquals(kept, ridsIndexedBy(tree), tree);
        }
        assertEquals(25, sweeper.stats().rowsDeleted());
        assertEquals(25 * 3 + 10 * 2, sweeper.stats().indexEntriesDeleted(), "every entry of a gone row, stale ones included");
        for (String tree : t.def().treeNames()) {
            List<StoredRecord> claims = store.scan(TableIndex.claimDomainOf(tree), KeyRange.ALL, Integer.MAX_VALUE);
            if (!claims.isEmpty()) { // unique: the primary key and EMAIL
                Set<Long> holders = new HashSet<>();
                claims.forEach(c -> holders.add(TableIndex.ridOf(c.value())));
                assertEquals(kept, holders, "claims of gone rows go: " + tree);
            }
        }
        assertEquals(25 * 2 + 10, sweeper.stats().claimsDeleted(), "PK and EMAIL of each gone row, and the old EMAIL claims");
        assertTrue(store.scan(GarbageLog.DOMAIN, KeyRange.ALL, 10).isEmpty(), "every garbage list read and done");
        assertTrue(sweeper.stats().roundTrips() > 0 && sweeper.stats().passes() == 1);
        Transaction tx = tm.beginReadOnly();
        assertEquals(15, t.scanAll(tx).size());
        assertEquals(5, t.lookup(tx, "ITEMS_BY_GRP", 1).size());
        assertSame(25, t.getByKey(tx, 25).orElseThrow().values()[0]);
        tx.commit();

        assertTrue(sweeper.runPass());
        assertEquals(25, sweeper.stats().rowsDeleted(), "nothing left to do");
    }

    @Test
    void theOldKeyOfALiveRowStaysUntilTheRowIsGone() {
        TableStore t = createItems("ITEMS");
        long rid = insert(t, 0, 1).get(0);
        tm.run(3, tx -> t.update(tx, rid, new Object[] {0, 5, "new@x"}));
        assertTrue(sweeper.runPass());
        assertTrue(sweeper.runPass()); // the carried item comes round again: the row still lives
        int entries = 0;
        for (String tree : t.def().treeNames()) {
            entries += BTree.open(store, BTreeConfig.of(tree, false)).scan(ScanRange.ALL, false, Integer.MAX_VALUE).size();
        }
        assertEquals(3 + 2, entries, "the old GRP and EMAIL entries stay, for a writer that sets them back");
        assertEquals(0, sweeper.stats().indexEntriesDeleted());
        assertFalse(store.scan(GarbageLog.DOMAIN, KeyRange.ALL, 10).isEmpty(), "carried forward");

        tm.run(3, tx -> t.delete(tx, rid));
        assertTrue(sweeper.runPass());
        assertTrue(sweeper.runPass());
        for (String tree : t.def().treeNames()) {
            assertTrue(ridsIndexedBy(tree).isEmpty(), tree);
        }
        assertEquals(3 + 2, sweeper.stats().indexEntriesDeleted(), "the row's three entries and its two old keys");
        assertTrue(store.scan(GarbageLog.DOMAIN, KeyRange.ALL, 10).isEmpty());
    }

    @Test
    void rowsAnOldSnapshotStillSeesStayUntilItEnds() {
        TableStore t = createItems("ITEMS");
        List<Long> rids = insert(t, 0, 10);
        Transaction old = tm.beginReadOnly();
        tm.run(3, tx -> {
            rids.forEach(rid -> t.delete(tx, rid));
            return null;
        });
        assertTrue(sweeper.runPass());
        assertEquals(new HashSet<>(rids), ridsIn(t.def().rowDomain()));
        assertEquals(0, sweeper.stats().indexEntriesDeleted());
        assertEquals(10, t.scanAll(old).size(), "the old snapshot finds every row, through the index");
        assertEquals(4, t.lookup(old, "ITEMS_BY_GRP", 0).size());
        old.commit();

        assertTrue(sweeper.runPass());
        assertTrue(ridsIn(t.def().rowDomain()).isEmpty());
    }

    @Test
    void aWriterThatReadTheTombstoneConflictsWhenTheSweeperWinsAndItsRetryIsCorrect() {
        // A plain domain whose keys are written again after a delete (SQL never reuses a rid, the
        // transaction API allows it): the sweeper's delete must not let such a writer write blindly.
        String domain = "plain";
        try (Sweeper plain = new Sweeper(store, tm, new io.tell.gc.SweepScope() {
            @Override
            public List<Table> tables() {
                return List.of(new Table(domain, List.of()));
            }

            @Override
            public Set<String> deadDomains() {
                return Set.of();
            }
        }, FAST, "pn-plain")) {
            byte[] key = TableIndex.ridKey(1);
            tm.run(3, tx -> {
                tx.put(domain, key, new byte[] {0});
                return null;
            });
            tm.run(3, tx -> tx.delete(domain, key));
            Transaction writer = tm.begin();
            assertEquals(null, writer.get(domain, key)); // reads the record: its newest version is the delete
            writer.put(domain, key, new byte[] {1});
            assertTrue(plain.runPass()); // the delete is at or below lav: the record goes
            assertTrue(store.scan(domain, KeyRange.ALL, 10).isEmpty());
            TellException e = assertThrows(TellException.class, writer::commit);
            assertSame(ErrorCode.TX_CONFLICT, e.code(), "the record changed under the writer: never written blindly");
            tm.run(3, tx -> {
                assertEquals(null, tx.get(domain, key));
                tx.put(domain, key, new byte[] {2});
                return null;
            });
            assertEquals(1, store.scan(domain, KeyRange.ALL, 10).size());
            assertEquals(1, plain.stats().rowsDeleted());
        }
    }

    @Test
    void droppedTablesAndIndexesLeaveNothingOnceNoOlderTransactionRuns() {
        TableStore keep = createItems("KEEP");
        insert(keep, 0, 5);
        catalog.createIndex("KEEP", "KEEP_BY_EMAIL", List.of("EMAIL"), false, false);
        TableStore keepWithIndex = new TableStore(tm, catalog.table("KEEP"));
        insert(keepWithIndex, 5, 10);
        String droppedTree = catalog.table("KEEP").index("KEEP_BY_EMAIL").treeName();
        TableStore gone = createItems("GONE");
        insert(gone, 0, 20);
        TableDef goneDef = gone.def();

        Transaction running = tm.beginReadOnly(); // began before the drops: may still use the old catalog
        catalog.dropIndex("KEEP_BY_EMAIL", false);
        catalog.dropTable("GONE", false);
        assertTrue(sweeper.runPass());
        assertTrue(sweeper.runPass());
        assertFalse(store.scan(goneDef.rowDomain(), KeyRange.ALL, 1).isEmpty(), "not while an older transaction runs");
        assertEquals(0, sweeper.stats().deadRecordsDeleted());
        running.commit();

        assertTrue(sweeper.runPass());
        Set<String> droppedDomains = new HashSet<>(goneDef.storageDomains());
        droppedDomains.addAll(TableIndex.domainsOf(droppedTree));
        for (String domain : droppedDomains) {
            assertTrue(store.scan(domain, KeyRange.ALL, 10).isEmpty(), domain);
        }
        assertTrue(sweeper.stats().deadRecordsDeleted() >= 20 + 20 + 3 * 3, "rows, unique claims, three trees' nodes and roots");
        assertEquals(1, store.increment(goneDef.ridCounter(), TableDef.RID_COUNTER_KEY.getBytes(StandardCharsets.UTF_8), 1),
                "the rid counter went with the rows");
        for (String domain : keep.def().storageDomains()) {
            if (!domain.endsWith(".uniq") && !domain.endsWith(".node") && !domain.equals(keep.def().ridCounter())) {
                assertFalse(store.scan(domain, KeyRange.ALL, 1).isEmpty(), "live storage untouched: " + domain);
            }
        }
        Transaction tx = tm.beginReadOnly();
        assertEquals(10, new TableStore(tm, catalog.table("KEEP")).scanAll(tx).size());
        tx.commit();
        long deleted = sweeper.stats().deadRecordsDeleted();
        assertTrue(sweeper.runPass());
        assertEquals(deleted, sweeper.stats().deadRecordsDeleted());
    }

    @Test
    void orphanLogEntriesOfCompletedTidsGoOthersStay() {
        TableStore t = createItems("ITEMS");
        insert(t, 0, 1);
        Transaction finished = tm.begin();
        finished.commit();
        Transaction fenced = tm.begin();
        fenced.commit();
        Transaction running = tm.begin();
        long old = System.currentTimeMillis() - 1000;
        List<RecordKey> keys = List.of(new RecordKey(t.def().rowDomain(), TableIndex.ridKey(1)));
        store.write(new WriteOp(TxLog.recordKey(finished.tid()),
                TxLog.encode(new TxLog.Entry(TxLog.State.WRITING, "pn-x", old, keys)), io.tell.store.Expect.ABSENT));
        store.write(new WriteOp(TxLog.recordKey(fenced.tid()),
                TxLog.encode(new TxLog.Entry(TxLog.State.FENCED, "cm", old, List.of())), io.tell.store.Expect.ABSENT));
        store.write(new WriteOp(TxLog.recordKey(running.tid()),
                TxLog.encode(new TxLog.Entry(TxLog.State.WRITING, "pn-1", old, keys)), io.tell.store.Expect.ABSENT));

        assertTrue(sweeper.runPass());

        assertEquals(null, store.get(TxLog.DOMAIN, TxLog.key(finished.tid())));
        assertNotNull(store.get(TxLog.DOMAIN, TxLog.key(fenced.tid())), "a fence stays: its owner may still try");
        assertNotNull(store.get(TxLog.DOMAIN, TxLog.key(running.tid())), "recovery's business, not the sweeper's");
        assertEquals(1, sweeper.stats().logEntriesDeleted());
        running.rollback();
    }

    /** A sweeper whose walks stop a grace period behind lav, as in production (there a minute). */
    private Sweeper sweeperWithGrace(Duration grace) {
        sweeper.close();
        sweeper = new Sweeper(store, tm, new CatalogSweepScope(catalog), FAST.withGrace(grace), "pn-1");
        return sweeper;
    }

    private long completedTid() {
        Transaction tx = tm.begin();
        tx.commit();
        return tx.tid();
    }

    private void writeLogEntry(long tid, List<RecordKey> keys) {
        store.write(new WriteOp(TxLog.recordKey(tid), TxLog.encode(new TxLog.Entry(TxLog.State.WRITING, "pn-x",
                System.currentTimeMillis(), keys)), io.tell.store.Expect.ABSENT));
    }

    @Test
    void revertFencesGoWithTheirLogEntryOnceNoLateWriteCanLand() throws InterruptedException {
        Duration grace = Duration.ofMillis(400);
        Sweeper sweeper = sweeperWithGrace(grace);
        TableStore t = createItems("ITEMS");
        long liveRid = insert(t, 0, 1).get(0);
        RecordKey live = new RecordKey(t.def().rowDomain(), TableIndex.ridKey(liveRid));
        RecordKey never = new RecordKey(t.def().rowDomain(), TableIndex.ridKey(liveRid + 1_000_000));
        long first = completedTid(); // its apply failed without answers, so its revert fenced
        writeLogEntry(first, List.of(live, never));
        assertTrue(Reverter.revert(store, first, List.of(live, never), true), "an absent record became a fence");
        assertFalse(store.write(WriteOp.insert(never.domain(), never.key(), new byte[] {1})).written(),
                "a late insert of the aborted tid fails on the fence");
        assertTrue(sweeper.runPass());
        Thread.sleep(grace.toMillis() + 100);
        long second = completedTid(); // a later revert fenced the same record again, just now
        writeLogEntry(second, List.of(never));
        assertTrue(Reverter.revert(store, second, List.of(never), true));

        assertTrue(sweeper.runPass());
        assertNotNull(store.get(never.domain(), never.key()), "the fence is young again: a late write of the second may still land");
        assertNotNull(store.get(TxLog.DOMAIN, TxLog.key(first)), "the entry stays with its fence");

        Thread.sleep(grace.toMillis() + 100);
        assertTrue(sweeper.runPass());
        assertEquals(null, store.get(never.domain(), never.key()), "an old fence goes");
        assertEquals(null, store.get(TxLog.DOMAIN, TxLog.key(first)));
        assertEquals(null, store.get(TxLog.DOMAIN, TxLog.key(second)));
        assertEquals(1, sweeper.stats().fencesDeleted());
        assertNotNull(store.get(live.domain(), live.key()), "a record with versions is no fence");
        Transaction tx = tm.beginReadOnly();
        assertEquals(1, t.scanAll(tx).size());
        tx.commit();
    }

    @Test
    void aLogEntryOrGarbageListLandingLateIsStillSwept() throws InterruptedException {
        Duration grace = Duration.ofMillis(400);
        Sweeper sweeper = sweeperWithGrace(grace);
        long tid = completedTid();
        assertTrue(sweeper.runPass()); // the tid is below lav already, yet its records may still land
        writeLogEntry(tid, List.of());
        store.write(new WriteOp(GarbageLog.recordKey(tid), GarbageLog.encode(List.of()), io.tell.store.Expect.ABSENT));

        Thread.sleep(grace.toMillis() + 100);
        assertTrue(sweeper.runPass());
        assertEquals(null, store.get(TxLog.DOMAIN, TxLog.key(tid)));
        assertEquals(null, store.get(GarbageLog.DOMAIN, GarbageLog.recordKey(tid).key()));
    }

    @Test
    void recordsATreeClientLeftUnreachableWhenItDiedGoInTheNextAudit() throws InterruptedException {
        TableStore t = createItems("ITEMS");
        insert(t, 0, 50);
        String tree = t.def().treeNames().get(0);
        List<String> domains = BTreeConfig.domainsOf(tree);
        // A client died after writing a new node's records and before linking it in.
        long id = store.increment(domains.get(2), "ids".getBytes(StandardCharsets.US_ASCII), 1, RecordStore.clockFloor());
        store.write(WriteOp.insert(domains.get(0), ByteBuffer.allocate(8).putLong(id).array(), new byte[] {'P', 0, 0, 0, 0, 0, 0, 0, 1}));
        store.write(WriteOp.insert(domains.get(1), ByteBuffer.allocate(8).putLong(id - 1).array(), new byte[] {42}));
        assertEquals(1, TreeValidator.validate(store, tree).unreachableMappings());

        assertTrue(sweeper.runPass()); // reads the id ceilings
        assertTrue(Sweeper.progress(store).contains("an audit of"), Sweeper.progress(store));
        assertTrue(sweeper.runPass());
        assertEquals(0, sweeper.stats().treeRecordsDeleted(), "not while a client may still swing such ids in");
        Thread.sleep(NodeStore.ID_RANGE_LIFE_MILLIS + 100);
        assertTrue(sweeper.runPass());

        assertTrue(Sweeper.progress(store).contains("last tree audit ended"), Sweeper.progress(store));
        TreeValidator.Report report = TreeValidator.validate(store, tree);
        assertEquals(0, report.unreachableMappings());
        assertEquals(0, report.unreferencedPhysical());
        // Also superseded records the inserting clients still had queued for their next write.
        assertTrue(sweeper.stats().treeRecordsDeleted() >= 2, "deleted " + sweeper.stats().treeRecordsDeleted());
        assertEquals(50, report.entries().size(), "every reachable node kept");
        Transaction tx = tm.beginReadOnly();
        assertEquals(50, t.scanAll(tx).size());
        tx.commit();
    }
}
