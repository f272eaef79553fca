package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.cm.LocalCommitManager;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Two processing nodes (catalog + transaction manager each) over one store ({@code mem} here,
 * Redis in {@link TableStoreRedisIT}) and one commit manager.
 */
class TableStoreTest {
    private RecordStore store;

    protected RecordStore openStore() {
        return RecordStores.open("mem:");
    }

    private LocalCommitManager cm;
    private TransactionManager tm1;
    private TransactionManager tm2;
    private TableStore t1;
    private TableStore t2;

    @BeforeEach
    void setUp() {
        store = openStore();
        cm = LocalCommitManager.open(store, LocalCommitManager.Options.embedded());
        tm1 = new TransactionManager(store, cm, "pn-1");
        tm2 = new TransactionManager(store, cm, "pn-2");
        new Catalog(store).createTable(TableSpec.builder("ACCOUNT")
                .column("BRANCH", ColumnType.SMALLINT)
                .column("NO", ColumnType.INTEGER)
                .notNull("OWNER", ColumnType.varchar(20))
                .column("EMAIL", ColumnType.varchar(50))
                .column("BALANCE", ColumnType.decimal(10, 2))
                .column("OPENED", ColumnType.DATE)
                .primaryKey("BRANCH", "NO")
                .unique("EMAIL")
                .index("BY_OWNER", false, "OWNER")
                .build(), false);
        t1 = new TableStore(tm1, new Catalog(store).table("ACCOUNT"));
        t2 = new TableStore(tm2, new Catalog(store).table("ACCOUNT"));
    }

    @Test
    void pointReadsByKeyFollowRowsThatGoOrChangeKey() {
        long first = tm1.run(3, tx -> t1.insert(tx, account(1, 1, "ann", "a@x", "1")));
        assertEquals(first, (long) tm2.<Long>run(3, tx -> t2.getByKey(tx, 1, 1).orElseThrow().rid())); // node 2 now knows the rid
        long second = tm1.run(3, tx -> {
            assertTrue(t1.delete(tx, first));
            return t1.insert(tx, account(1, 1, "bob", "b@x", "2"));
        });
        assertEquals(second, (long) tm2.<Long>run(3, tx -> t2.getByKey(tx, 1, 1).orElseThrow().rid()), "the key's new row, not the gone one");
        assertEquals(second, (long) tm2.<Long>run(3, tx -> t2.range(tx, null, new Object[] {1, 1}, true, new Object[] {1, 1}, true, 10)
                .get(0).rid()));
        Transaction old = tm2.beginReadOnly();
        assertEquals("bob", t2.getByKey(old, 1, 1).orElseThrow().values()[2]);
        tm1.run(3, tx -> t1.update(tx, second, account(1, 2, "bob", "b@x", "2")));
        tm2.run(3, tx -> {
            assertTrue(t2.getByKey(tx, 1, 1).isEmpty(), "the row moved to another key");
            assertEquals(second, t2.getByKey(tx, 1, 2).orElseThrow().rid());
            return null;
        });
        assertEquals(second, t2.getByKey(old, 1, 1).orElseThrow().rid(), "an older snapshot still finds it by its old key");
        old.close();
        tm2.run(3, tx -> { // own writes: a row inserted under a key whose known rid was deleted here
            assertTrue(t2.delete(tx, second));
            long third = t2.insert(tx, account(1, 2, "cy", "c@x", "3"));
            assertEquals(third, t2.getByKey(tx, 1, 2).orElseThrow().rid());
            return null;
        });
    }

    @AfterEach
    void tearDown() {
        tm1.close();
        tm2.close();
        cm.close();
        store.close();
    }

    private static Object[] account(int branch, int no, String owner, String email, String balance) {
        return new Object[] {branch, no, owner, email, balance == null ? null : new BigDecimal(balance), LocalDate.of(2026, 1, branch)};
    }

    @Test
    void rowsAreWrittenCoercedAndFoundByKeyAndIndexFromAnotherNode() {
        long rid = tm1.run(3, tx -> {
            t1.insert(tx, account(1, 10, "ann", "ann@x", "5"));
            t1.insert(tx, account(1, 11, "bob", null, "7.5"));
            return t1.insert(tx, account(2, 10, "ann", "ann2@x", null));
        });
        try (Transaction tx = tm2.beginReadOnly()) {
            TableStore.Row row = t2.getByKey(tx, 1, 10).orElseThrow();
            assertArrayEquals(new Object[] {(short) 1, 10, "ann", "ann@x", new BigDecimal("5.00"), LocalDate.of(2026, 1, 1)},
                    row.values());
            assertArrayEquals(row.values(), t2.get(tx, row.rid()));
            assertEquals((short) 2, t2.getByKey(tx, 2L, 10L).orElseThrow().values()[0], "key values are coerced too");
            assertEquals(rid, t2.getByKey(tx, 2, 10).orElseThrow().rid());
            assertTrue(t2.getByKey(tx, 3, 10).isEmpty());
            assertEquals(List.of(10, 10), t2.lookup(tx, "BY_OWNER", "ann").stream().map(r -> r.values()[1]).toList());
            assertEquals(2, t2.lookup(tx, "ACCOUNT_UNIQUE_1").size(), "empty prefix: the whole index, without the NULL email");
            assertEquals(2, t2.lookup(tx, "BY_OWNER").stream().filter(r -> r.values()[2].equals("ann")).count());
        }
    }

    @Test
    void updateAndDeleteGoThroughIndexes() {
        long rid = tm1.run(3, tx -> t1.insert(tx, account(1, 1, "ann", "a@x", "1")));
        tm2.run(3, tx -> {
            Object[] row = t2.get(tx, rid);
            row[2] = "carol";
            assertTrue(t2.update(tx, rid, row));
            return null;
        });
        try (Transaction tx = tm1.beginReadOnly()) {
            assertTrue(t1.lookup(tx, "BY_OWNER", "ann").isEmpty());
            assertEquals(rid, t1.lookup(tx, "BY_OWNER", "carol").get(0).rid());
        }
        assertTrue(tm1.<Boolean>run(3, tx -> t1.delete(tx, rid)));
        try (Transaction tx = tm2.beginReadOnly()) {
            assertNull(t2.get(tx, rid));
            assertTrue(t2.getByKey(tx, 1, 1).isEmpty());
        }
        assertFalse(tm2.<Boolean>run(3, tx -> t2.delete(tx, rid)));
        tm2.run(3, tx -> t2.insert(tx, account(1, 1, "dan", "a@x", "2")));
    }

    @Test
    void duplicatePrimaryKeyFromAnotherNodeIsRefused() {
        tm1.run(3, tx -> t1.insert(tx, account(1, 1, "ann", "a@x", "1")));
        TellException e = assertThrows(TellException.class,
                () -> tm2.run(3, tx -> t2.insert(tx, account(1, 1, "bob", "b@x", "1"))));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        try (Transaction tx = tm2.beginReadOnly()) {
            assertEquals("ann", t2.getByKey(tx, 1, 1).orElseThrow().values()[2]);
            assertTrue(t2.lookup(tx, "BY_OWNER", "bob").isEmpty(), "the refused row left nothing behind");
        }
    }

    @Test
    void duplicateKeysInOneTransactionAreRefused() {
        TellException e = assertThrows(TellException.class, () -> tm1.run(3, tx -> {
            t1.insert(tx, account(1, 1, "ann", "a@x", "1"));
            return t1.insert(tx, account(1, 1, "bob", "b@x", "1"));
        }));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
    }

    @Test
    void uniqueConstraintIgnoresNullsButRefusesEqualValues() {
        tm1.run(3, tx -> {
            t1.insert(tx, account(1, 1, "ann", null, "1"));
            return t1.insert(tx, account(1, 2, "bob", null, "1"));
        });
        tm1.run(3, tx -> t1.insert(tx, account(1, 3, "cy", "c@x", "1")));
        assertSame(ErrorCode.DUPLICATE_KEY, assertThrows(TellException.class,
                () -> tm2.run(3, tx -> t2.insert(tx, account(1, 4, "dee", "c@x", "1")))).code());
    }

    @Test
    void valuesAreCheckedBeforeAnythingIsWritten() {
        try (Transaction tx = tm1.begin()) {
            TellException nn = assertThrows(TellException.class, () -> t1.insert(tx, account(1, 1, null, "a@x", "1")));
            assertSame(ErrorCode.NOT_NULL_VIOLATION, nn.code());
            assertEquals("column ACCOUNT.OWNER is NOT NULL", nn.getMessage());
            assertSame(ErrorCode.NOT_NULL_VIOLATION, assertThrows(TellException.class,
                    () -> t1.insert(tx, new Object[] {null, 1, "ann", null, null, null})).code(), "primary-key columns are NOT NULL");
            TellException tooLong = assertThrows(TellException.class,
                    () -> t1.insert(tx, account(1, 1, "a".repeat(21), null, "1")));
            assertSame(ErrorCode.STRING_TOO_LONG, tooLong.code());
            assertTrue(tooLong.getMessage().startsWith("column ACCOUNT.OWNER: "), tooLong.getMessage());
            assertSame(ErrorCode.VALUE_OUT_OF_RANGE, assertThrows(TellException.class,
                    () -> t1.insert(tx, account(1, 1, "ann", null, "123456789"))).code());
            assertSame(ErrorCode.VALUE_OUT_OF_RANGE, assertThrows(TellException.class,
                    () -> t1.insert(tx, new Object[] {40000, 1, "ann", null, null, null})).code());
            assertTrue(tx.isActive(), "a refused value does not end the transaction");
            t1.insert(tx, account(1, 1, "ann", null, "1"));
            tx.commit();
        }
    }

    @Test
    void rangesOverCompositeKeysArePrefixAware() {
        tm1.run(3, tx -> {
            for (int b = 1; b <= 3; b++) {
                for (int n = 1; n <= 3; n++) {
                    t1.insert(tx, account(b, n, "o" + b + n, null, null));
                }
            }
            return null;
        });
        try (Transaction tx = tm2.beginReadOnly()) {
            assertEquals(List.of("o21", "o22", "o23"), owners(t2.range(tx, null, new Object[] {2}, true,
                    new Object[] {2}, true, 100)));
            assertEquals(List.of("o31", "o32", "o33"), owners(t2.range(tx, null, new Object[] {2}, false,
                    new Object[] {}, true, 100)));
            assertEquals(List.of("o11", "o12", "o13", "o21"), owners(t2.range(tx, null, new Object[] {}, true,
                    new Object[] {2, 2}, false, 100)));
            assertEquals(List.of("o22", "o23", "o31"), owners(t2.range(tx, null, new Object[] {2, 2}, true,
                    new Object[] {3, 1}, true, 100)));
            assertEquals(List.of("o11", "o12"), owners(t2.range(tx, null, new Object[] {}, true, new Object[] {}, true, 2)));
            assertEquals(List.of("o31", "o32", "o33"), owners(t2.range(tx, "BY_OWNER", new Object[] {"o3"}, true,
                    new Object[] {"o4"}, false, 100)));
        }
    }

    private static List<Object> owners(List<TableStore.Row> rows) {
        return rows.stream().map(r -> r.values()[2]).toList();
    }

    @Test
    void omittedColumnsTakeTheirDefaults() {
        TableDef def = new Catalog(store).createTable(TableSpec.builder("D")
                .notNull("ID", ColumnType.BIGINT)
                .column(ColumnDef.notNull("STATUS", ColumnType.character(2)).withDefault("N"))
                .column(ColumnDef.of("AMOUNT", ColumnType.decimal(6, 1)).withDefault(0))
                .column("NOTE", ColumnType.varchar(10))
                .primaryKey("ID").build(), false);
        TableStore d = new TableStore(tm1, def);
        Object[] row = d.withDefaults(java.util.Map.of("ID", 7, "NOTE", "hi"));
        tm1.run(3, tx -> d.insert(tx, row));
        try (Transaction tx = tm2.beginReadOnly()) {
            assertArrayEquals(new Object[] {7L, "N ", new BigDecimal("0.0"), "hi"},
                    new TableStore(tm2, def).getByKey(tx, 7).orElseThrow().values());
        }
        assertSame(ErrorCode.UNDEFINED_OBJECT, assertThrows(TellException.class,
                () -> d.withDefaults(java.util.Map.of("NOPE", 1))).code());
        assertSame(ErrorCode.NOT_NULL_VIOLATION, assertThrows(TellException.class,
                () -> d.validate(d.withDefaults(java.util.Map.of("STATUS", "Y")))).code());
    }

    @Test
    void tablesWithoutPrimaryKeyAreScannedInFullInRidOrder() {
        TableDef def = new Catalog(store).createTable(TableSpec.builder("LOG")
                .column("MSG", ColumnType.varchar(10)).build(), false);
        TableStore log1 = new TableStore(tm1, def);
        TableStore log2 = new TableStore(tm2, def);
        long a = tm1.run(3, tx -> log1.insert(tx, new Object[] {"a"}));
        long b = tm2.run(3, tx -> log2.insert(tx, new Object[] {"b"}));
        long c = tm1.run(3, tx -> log1.insert(tx, new Object[] {"c"}));
        tm2.run(3, tx -> log2.update(tx, a, new Object[] {"a2"}));
        tm2.run(3, tx -> log2.delete(tx, c));
        try (Transaction tx = tm2.begin()) {
            long d = log2.insert(tx, new Object[] {"d"});
            List<TableStore.Row> rows = log2.scanAll(tx);
            assertEquals(List.of(a, b, d), rows.stream().map(TableStore.Row::rid).toList(), "rid order, own insert included");
            assertEquals(List.of("a2", "b", "d"), rows.stream().map(r -> r.values()[0]).toList());
        }
        assertSame(ErrorCode.INVALID_DEFINITION, assertThrows(TellException.class, () -> {
            try (Transaction tx = tm1.beginReadOnly()) {
                log1.range(tx, null, new Object[0], true, new Object[0], true, 10);
            }
        }).code(), "no primary key to range over");
    }

    @Test
    void tablesWithPrimaryKeyAreScannedInKeyOrder() {
        tm1.run(3, tx -> {
            t1.insert(tx, account(2, 1, "c", null, null));
            t1.insert(tx, account(1, 7, "b", null, null));
            return t1.insert(tx, account(1, 3, "a", null, null));
        });
        try (Transaction tx = tm2.beginReadOnly()) {
            assertEquals(List.of("a", "b", "c"), owners(t2.scanAll(tx)));
        }
    }

    @Test
    void anIndexAddedToATableWithRowsIsFilledByReindex() {
        tm1.run(3, tx -> {
            t1.insert(tx, account(1, 1, "ann", "a@x", "1"));
            t1.insert(tx, account(1, 2, "bob", "b@x", "1"));
            return t1.insert(tx, account(2, 1, "ann", "c@x", "1"));
        });
        TableDef def = new Catalog(store).createIndex("ACCOUNT", "BY_BALANCE", List.of("BALANCE", "OWNER"), false, false);
        TableStore t = new TableStore(tm2, def);
        List<Long> rids = t.rowEntries(null, 100).stream().map(IndexEntry::rid).toList();
        assertEquals(3, rids.size(), "the primary key lists every row");
        assertEquals(List.of(), t.rowEntries(new IndexEntry(new byte[] {(byte) 0xff}, 0), 100));
        assertEquals(rids.subList(1, 3), t.rowEntries(t.rowEntries(null, 1).get(0), 100).stream()
                .map(IndexEntry::rid).toList(), "a walk goes on after its last entry");
        int rows = tm2.run(3, tx -> t.reindex(tx, "BY_BALANCE", rids));
        assertEquals(3, rows);
        try (Transaction tx = tm1.beginReadOnly()) {
            assertEquals(List.of("ann", "ann", "bob"),
                    owners(new TableStore(tm1, def).lookup(tx, "BY_BALANCE", new BigDecimal("1.00"))));
        }
        assertSame(ErrorCode.UNDEFINED_OBJECT, assertThrows(TellException.class,
                () -> tm2.run(1, tx -> t.reindex(tx, "NOPE", List.of(1L)))).code());
    }

    @Test
    void ridsComeFromTheTableCounterInRanges() {
        long clock = RecordStore.clockFloor();
        long a = tm1.run(3, tx -> t1.insert(tx, account(1, 1, "a", null, null)));
        long b = tm2.run(3, tx -> t2.insert(tx, account(1, 2, "b", null, null)));
        long c = tm1.run(3, tx -> t1.insert(tx, account(1, 3, "c", null, null)));
        assertTrue(a > clock, "the clock is the floor of every range: " + a + " <= " + clock);
        assertTrue(b >= a + TableStore.RID_BATCH, "the second node reserved a later range: " + a + ", " + b);
        assertEquals(a + 1, c);
    }

    @Test
    void aRidCounterThatWentBackNeverHandsOutAUsedRid() throws InterruptedException {
        List<Long> used = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            int no = i;
            used.add(tm1.run(3, tx -> t1.insert(tx, account(1, no, "old", null, null))));
        }
        // A fail-over that lost the INCRBYs: the counter goes back to before any rid was handed out.
        String domain = t1.def().ridCounter();
        byte[] key = TableDef.RID_COUNTER_KEY.getBytes(StandardCharsets.UTF_8);
        long counter = store.increment(domain, key, 0);
        assertEquals(0, store.increment(domain, key, -counter));
        Thread.sleep(1); // the fail-over takes longer than a range of rids takes to hand out
        TableStore fresh = new TableStore(tm2, new Catalog(store).table("ACCOUNT")); // a node that starts now
        List<Long> rids = new ArrayList<>();
        for (int i = 1; i <= 2 * TableStore.RID_BATCH + 5; i++) {
            int no = i;
            rids.add(tm2.run(3, tx -> fresh.insert(tx, account(2, no, "new", null, null))));
        }
        for (long rid : rids) {
            assertFalse(used.contains(rid), "rid " + rid + " handed out twice");
        }
        assertEquals(rids.size(), new HashSet<>(rids).size());
        try (Transaction tx = tm1.beginReadOnly()) {
            assertEquals(5, t1.lookup(tx, "BY_OWNER", "old").size(), "the old rows are untouched");
            assertEquals(rids.size(), t1.lookup(tx, "BY_OWNER", "new").size());
        }
    }
}
