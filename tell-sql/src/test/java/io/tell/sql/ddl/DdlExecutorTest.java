package io.tell.sql.ddl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.ProcessingNode;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.store.RecordStore;
import io.tell.txn.Transaction;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** DDL text run on a private embedded database. */
class DdlExecutorTest {
    private ProcessingNode node;

    @BeforeEach
    void connect() {
        node = ProcessingNode.connect("jdbc:tell:mem:");
    }

    @AfterEach
    void close() {
        node.close();
    }

    private long run(String sql) {
        return DdlExecutor.execute(node, DdlParser.parse(sql), io.tell.sql.SchemaPath.DEFAULT);
    }

    private ErrorCode codeOf(String sql) {
        return assertThrows(TellException.class, () -> run(sql)).code();
    }

    private TableDef table(String name) {
        return node.catalog().table(name);
    }

    private TableStore store(String name) {
        return node.table(table(name));
    }

    private void insert(String table, Object[]... rows) {
        TableStore t = store(table);
        node.transactions().run(3, tx -> {
            for (Object[] row : rows) {
                t.insert(tx, row);
            }
            return null;
        });
    }

    private static List<Object> column(List<TableStore.Row> rows, int i) {
        return rows.stream().map(r -> r.values()[i]).toList();
    }

    @Test
    void createTableGivesTheCatalogTypesNullabilityDefaultsAndConstraints() {
        run("CREATE TABLE warehouse (id INT PRIMARY KEY, name VARCHAR(10))");
        assertEquals(0, run("""
                CREATE TABLE district (
                  w_id INT REFERENCES warehouse,
                  d_id SMALLINT,
                  name VARCHAR(10) NOT NULL DEFAULT 'none',
                  tax DECIMAL(4, 4) DEFAULT 0.1,
                  ytd DOUBLE PRECISION DEFAULT 0,
                  code CHAR(2) DEFAULT 'x' UNIQUE,
                  open BOOLEAN DEFAULT TRUE,
                  since DATE DEFAULT DATE '2024-01-31',
                  PRIMARY KEY (w_id, d_id),
                  CONSTRAINT d_name UNIQUE (w_id, name)
                )"""));
        TableDef d = table("DISTRICT");
        assertEquals(List.of(
                new ColumnDef("W_ID", ColumnType.INTEGER, false, null),
                new ColumnDef("D_ID", ColumnType.SMALLINT, false, null),
                new ColumnDef("NAME", ColumnType.varchar(10), false, "none"),
                new ColumnDef("TAX", ColumnType.decimal(4, 4), true, new BigDecimal("0.1000")),
                new ColumnDef("YTD", ColumnType.DOUBLE, true, 0.0),
                new ColumnDef("CODE", ColumnType.character(2), true, "x "),
                new ColumnDef("OPEN", ColumnType.BOOLEAN, true, true),
                new ColumnDef("SINCE", ColumnType.DATE, true, LocalDate.of(2024, 1, 31))), d.columns());
        assertEquals(List.of("W_ID", "D_ID"), d.primaryKey());
        assertEquals(List.of("DISTRICT_UNIQUE_1", "D_NAME"), d.indexes().stream().map(IndexDef::name).toList());
        assertTrue(d.indexes().stream().allMatch(ix -> ix.unique() && ix.constraint()));
        assertEquals(List.of(new ForeignKeyDef("DISTRICT_FK_1", List.of("W_ID"), "WAREHOUSE", List.of("ID"))),
                d.foreignKeys());
        assertNull(d.ridTree());
    }

    @Test
    void badDefaultsAndDefinitionsAreRefusedClearly() {
        TellException e = assertThrows(TellException.class, () -> run("CREATE TABLE t (a INT DEFAULT 'abc')"));
        assertSame(ErrorCode.INVALID_DEFINITION, e.code());
        assertTrue(e.getMessage().startsWith("table T: bad DEFAULT for column A: "), e.getMessage());
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf("CREATE TABLE t (a SMALLINT DEFAULT 40000)"));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf("CREATE TABLE t (a VARCHAR(2) DEFAULT 'abc')"));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf("CREATE TABLE t (a INT, PRIMARY KEY (b))"));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf("CREATE TABLE t (a INT, a INT)"));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf("CREATE TABLE t (a INT REFERENCES nowhere)"));
        assertTrue(node.catalog().tables().isEmpty());
    }

    @Test
    void ifNotExistsAndIfExists() {
        run("CREATE TABLE t (a INT)");
        assertSame(ErrorCode.DUPLICATE_OBJECT, codeOf("CREATE TABLE t (b INT)"));
        run("CREATE TABLE IF NOT EXISTS t (b INT)");
        assertEquals("A", table("T").columns().get(0).name(), "left unchanged");
        run("CREATE INDEX i ON t (a)");
        assertSame(ErrorCode.DUPLICATE_OBJECT, codeOf("CREATE INDEX i ON t (a)"));
        run("CREATE UNIQUE INDEX IF NOT EXISTS i ON t (a)");
        assertFalse(table("T").index("I").unique(), "left unchanged");
        run("DROP INDEX i");
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf("DROP INDEX i"));
        run("DROP INDEX IF EXISTS i");
        run("DROP TABLE t");
        assertTrue(node.catalog().snapshot().table("T").isEmpty());
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf("DROP TABLE t"));
        run("DROP TABLE IF EXISTS t");
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf("CREATE INDEX i ON t (a)"));
    }

    @Test
    void createIndexFillsTheIndexFromExistingRows() {
        run("CREATE TABLE customer (id INT PRIMARY KEY, last VARCHAR(10), city VARCHAR(10))");
        insert("CUSTOMER", new Object[] {1, "smith", "bern"}, new Object[] {2, "jones", "zug"},
                new Object[] {3, "smith", "basel"}, new Object[] {4, null, "bern"});
        run("CREATE INDEX by_last ON customer (last, city)");
        TableStore t = store("CUSTOMER");
        try (Transaction tx = node.transactions().beginReadOnly()) {
            assertEquals(List.of(3, 1), column(t.lookup(tx, "BY_LAST", "smith"), 0));
            assertEquals(List.of(2), column(t.lookup(tx, "BY_LAST", "jones", "zug"), 0));
            assertEquals(4, t.lookup(tx, "BY_LAST").size(), "NULL keys are in a non-unique index too");
        }
        insert("CUSTOMER", new Object[] {5, "smith", "aarau"});
        try (Transaction tx = node.transactions().beginReadOnly()) {
            assertEquals(List.of(5, 3, 1), column(t.lookup(tx, "BY_LAST", "smith"), 0), "later rows are kept too");
        }
    }

    @Test
    void aNonUniqueIndexIsFilledWithoutRewritingTheRowsAUniqueOneRewritesThem() {
        run("CREATE TABLE item (id INT PRIMARY KEY, tag INT, code INT)");
        int rows = DdlExecutor.BACKFILL_BATCH + 300;
        TableStore t = store("ITEM");
        insertRows(t, rows, i -> new Object[] {i, i % 7, i});
        List<Long> before = rowVersions(t);
        run("CREATE INDEX by_tag ON item (tag)");
        List<Long> unchanged = rowVersions(t);
        assertEquals(0, java.util.stream.IntStream.range(0, rows).filter(i -> !unchanged.get(i).equals(before.get(i))).count(),
                "rows a non-unique index's backfill rewrote");
        try (Transaction tx = node.transactions().beginReadOnly()) {
            TableStore indexed = store("ITEM");
            for (int tag = 0; tag < 7; tag++) {
                int expected = tag;
                assertEquals(java.util.stream.IntStream.range(0, rows).filter(i -> i % 7 == expected).boxed().toList(),
                        column(indexed.lookup(tx, "BY_TAG", tag), 0).stream().map(o -> (Integer) o).sorted().toList());
            }
        }
        run("CREATE UNIQUE INDEX by_code ON item (code)");
        List<Long> after = rowVersions(t);
        assertEquals(rows, java.util.stream.IntStream.range(0, rows).filter(i -> after.get(i) > before.get(i)).count(),
                "rows a unique index's backfill rewrote");
    }

    @Test
    void aTruncateWhileAnIndexIsFilledFailsTheCreateIndexInsteadOfFillingTheOldTree() {
        run("CREATE TABLE t (id INT PRIMARY KEY, code INT)");
        insertRows(store("T"), DdlExecutor.BACKFILL_BATCH + 10, i -> new Object[] {i, i});
        AtomicBoolean truncated = new AtomicBoolean();
        node.transactions().observeCommits((step, tid) -> {
            if (step == io.tell.txn.CommitObserver.Step.APPLIED && truncated.compareAndSet(false, true)) {
                run("TRUNCATE TABLE t"); // after the first page's commit: the next page finds the index moved
            }
        });
        TellException e = assertThrows(TellException.class, () -> run("CREATE UNIQUE INDEX u ON t (code)"));
        assertTrue(truncated.get());
        assertSame(ErrorCode.UNDEFINED_OBJECT, e.code());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        assertNull(table("T").index("U"), "the failed index is dropped again");
    }

    /** Inserts {@code rows} rows, the i-th {@code row.apply(i)}, in one transaction. */
    private void insertRows(TableStore t, int rows, java.util.function.IntFunction<Object[]> row) {
        node.transactions().run(3, tx -> {
            for (int i = 0; i < rows; i++) {
                t.insert(tx, row.apply(i));
            }
            return null;
        });
    }

    /** The store version of each row record of {@code t}, in rid order. */
    private List<Long> rowVersions(TableStore t) {
        List<Long> versions = new ArrayList<>();
        try (Transaction tx = node.transactions().beginReadOnly()) {
            for (TableStore.Row r : t.scanAll(tx)) {
                versions.add(node.store().get(t.def().rowDomain(), io.tell.txn.TableIndex.ridKey(r.rid())).version());
            }
        }
        return versions;
    }

    @Test
    void uniqueIndexOverDuplicatesFailsAndLeavesNoIndex() {
        run("CREATE TABLE t (id INT PRIMARY KEY, code VARCHAR(5), note VARCHAR(5))");
        insert("T", new Object[] {1, "a", "n1"}, new Object[] {2, "b", null}, new Object[] {3, "a", "n3"},
                new Object[] {4, "c", null});
        TellException e = assertThrows(TellException.class, () -> run("CREATE UNIQUE INDEX u ON t (code)"));
        assertSame(ErrorCode.DUPLICATE_KEY, e.code());
        assertTrue(e.getMessage().startsWith("could not create unique index U: table T has rows with equal keys"),
                e.getMessage());
        assertNull(table("T").index("U"));
        assertTrue(node.catalog().snapshot().tableOfIndex("U").isEmpty());
        insert("T", new Object[] {5, "b", "n5"}); // the failed index refuses nothing on this node

        run("CREATE UNIQUE INDEX u ON t (note)"); // two NULLs are not equal keys
        assertSame(ErrorCode.DUPLICATE_KEY, assertThrows(TellException.class,
                () -> insert("T", new Object[] {6, "x", "n1"})).code());
        try (Transaction tx = node.transactions().beginReadOnly()) {
            assertEquals(List.of(3), column(store("T").lookup(tx, "U", "n3"), 0));
        }
    }

    @Test
    void droppedUniqueIndexNoLongerRefusesKeys() {
        run("CREATE TABLE t (id INT PRIMARY KEY, code INT)");
        run("CREATE UNIQUE INDEX u ON t (code)");
        insert("T", new Object[] {1, 10});
        assertSame(ErrorCode.DUPLICATE_KEY, assertThrows(TellException.class, () -> insert("T", new Object[] {2, 10})).code());
        run("DROP INDEX u");
        insert("T", new Object[] {2, 10});
    }

    @Test
    void backfillCoversLargeTablesWithoutPrimaryKeyInBatches() {
        run("CREATE TABLE log (n INT, msg VARCHAR(10))");
        int rows = DdlExecutor.BACKFILL_BATCH * 2 + 500;
        TableStore t = store("LOG");
        insertRows(t, rows, i -> new Object[] {i, i % 2 == 0 ? "even" : "odd"});
        node.transactions().run(3, tx -> t.scanAll(tx).stream().filter(r -> (int) r.values()[0] % 100 == 0)
                .map(r -> t.delete(tx, r.rid())).count());
        try (Transaction tx = node.transactions().beginReadOnly()) {
            List<TableStore.Row> all = t.scanAll(tx);
            assertEquals(rows - 25, all.size());
            assertEquals(1, all.get(0).values()[0], "in rid order");
        }
        run("CREATE INDEX by_msg ON log (msg)");
        try (Transaction tx = node.transactions().beginReadOnly()) {
            TableStore indexed = store("LOG");
            assertEquals(rows / 2 - 25, indexed.lookup(tx, "BY_MSG", "even").size());
            assertEquals(rows / 2, indexed.lookup(tx, "BY_MSG", "odd").size());
        }
    }

    @Test
    @Timeout(120)
    void createIndexOverHugeSparseRidsVisitsTheRowsNotTheRids() throws Exception {
        run("CREATE TABLE acct (id INT PRIMARY KEY, owner VARCHAR(10))");
        run("CREATE TABLE memo (owner VARCHAR(10))");
        for (String table : List.of("ACCT", "MEMO")) {
            TableStore[] t = {store(table)};
            byte[] counter = TableDef.RID_COUNTER_KEY.getBytes(StandardCharsets.UTF_8);
            long clock = RecordStore.clockFloor();
            List<Long> rids = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int id = i;
                Object[] row = table.equals("ACCT") ? new Object[] {id, "o" + id % 3} : new Object[] {"o" + id % 3};
                rids.add(node.transactions().run(3, tx -> t[0].insert(tx, row)));
                if (i % 10 == 9) { // others reserved ranges far above, then a node starts: rids are sparse
                    node.store().increment(table(table).ridCounter(), counter, 1_000_000_000_000L);
                    t[0] = new TableStore(node.transactions(), table(table));
                }
            }
            assertTrue(rids.get(0) > clock, "rids start at the clock");
            assertTrue(rids.get(29) - rids.get(0) > 2_000_000_000_000L, "and are sparse");
            node.transactions().run(3, tx -> t[0].delete(tx, rids.get(0)) && t[0].delete(tx, rids.get(15)));
            if (table.equals("ACCT")) { // under a new key, the row is listed twice in the tree for a while
                node.transactions().run(3, tx -> t[0].update(tx, rids.get(1), new Object[] {100, "o1"}));
            }
            Transaction open = node.transactions().begin(); // never committed: not indexed
            t[0].insert(open, table.equals("ACCT") ? new Object[] {200, "o1"} : new Object[] {"o1"});
            CompletableFuture<Long> create = CompletableFuture.supplyAsync(
                    () -> run("CREATE INDEX by_owner_" + table + " ON " + table + " (owner)"));
            Thread.sleep(200);
            assertFalse(create.isDone(), "CREATE INDEX waits for the writers that began before it");
            open.rollback();
            create.get(60, TimeUnit.SECONDS);
            TableStore indexed = store(table);
            try (Transaction tx = node.transactions().beginReadOnly()) {
                for (int o = 0; o < 3; o++) {
                    List<Long> want = new ArrayList<>();
                    for (int i = 0; i < 30; i++) {
                        if (i % 3 == o && i != 0 && i != 15) {
                            want.add(rids.get(i));
                        }
                    }
                    List<Long> got = new ArrayList<>(indexed.lookup(tx, "BY_OWNER_" + table, "o" + o).stream()
                            .map(TableStore.Row::rid).toList());
                    got.sort(null);
                    assertEquals(want, got, table + " owner o" + o);
                }
            }
        }
    }

    @Test
    @Timeout(120)
    void createIndexWhileRowsComeAndGoIndexesExactlyTheRowsThatStay() throws Exception {
        run("CREATE TABLE item (id INT PRIMARY KEY, tag VARCHAR(10))");
        TableStore t = store("ITEM");
        int rows = DdlExecutor.BACKFILL_BATCH * 2;
        node.transactions().run(3, tx -> {
            for (int i = 0; i < rows; i++) {
                t.insert(tx, new Object[] {i, "t" + i % 2});
            }
            return null;
        });
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger next = new AtomicInteger(rows);
        Thread writer = Thread.ofPlatform().start(() -> {
            while (!stop.get()) { // inserts one row, deletes an old one
                int id = next.getAndIncrement();
                node.transactions().run(10, tx -> {
                    t.insert(tx, new Object[] {id, "t" + id % 2});
                    return t.getByKey(tx, id - rows).map(r -> t.delete(tx, r.rid())).orElse(false);
                });
            }
        });
        try {
            Thread.sleep(20);
            run("CREATE INDEX by_tag ON item (tag)");
            Thread.sleep(20);
        } finally {
            stop.set(true);
            writer.join();
        }
        assertTrue(next.get() > rows, "rows came and went");
        TableStore indexed = store("ITEM");
        try (Transaction tx = node.transactions().beginReadOnly()) {
            for (String tag : List.of("t0", "t1")) {
                List<Object> want = column(indexed.scanAll(tx), 0).stream()
                        .filter(id -> ("t" + (int) id % 2).equals(tag)).sorted().toList();
                List<Object> got = column(indexed.lookup(tx, "BY_TAG", tag), 0).stream()
                        .sorted().toList();
                assertEquals(want, got, tag);
            }
        }
    }

    @Test
    void aTableWithoutPrimaryKeyIsScannedInFull() {
        run("CREATE TABLE notes (txt VARCHAR(10))");
        assertTrue(table("NOTES").ridTree() != null);
        insert("NOTES", new Object[] {"b"}, new Object[] {"a"});
        insert("NOTES", new Object[] {"c"});
        try (Transaction tx = node.transactions().beginReadOnly()) {
            assertEquals(List.of("b", "a", "c"), column(store("NOTES").scanAll(tx), 0));
        }
    }
}
