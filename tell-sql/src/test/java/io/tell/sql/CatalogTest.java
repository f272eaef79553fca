package io.tell.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Each {@link Catalog} object stands for one processing node; all share one store ({@code mem}
 * here, Redis in {@link CatalogRedisIT}).
 */
class CatalogTest {
    protected RecordStore store;

    protected RecordStore openStore() {
        return RecordStores.open("mem:");
    }

    @BeforeEach
    void openTheStore() {
        store = openStore();
    }

    @AfterEach
    void tearDown() {
        store.close();
    }

    private static TableSpec customers(String name) {
        return TableSpec.builder(name)
                .column("ID", ColumnType.INTEGER)
                .notNull("EMAIL", ColumnType.varchar(100))
                .column(ColumnDef.of("BALANCE", ColumnType.decimal(12, 2)).withDefault(0))
                .column(ColumnDef.notNull("KIND", ColumnType.character(3)).withDefault("A"))
                .column("BORN", ColumnType.DATE)
                .primaryKey("ID")
                .unique("EMAIL")
                .index(name + "_BY_BORN", false, "BORN", "KIND")
                .build();
    }

    private static ErrorCode codeOf(Runnable r) {
        return assertThrows(TellException.class, r::run).code();
    }

    @Test
    void ddlThroughOneNodeIsSeenByAnother() {
        Catalog pn1 = new Catalog(store);
        Catalog pn2 = new Catalog(store);
        assertEquals(0, pn2.snapshot().version());
        TableDef created = pn1.createTable(customers("CUSTOMER"), false);
        TableDef seen = pn2.table("CUSTOMER");
        assertEquals(created, seen);
        assertEquals(1, pn2.snapshot().version());
        assertFalse(seen.columns().get(0).nullable(), "primary-key columns become NOT NULL");
        assertEquals(new BigDecimal("0.00"), seen.columns().get(2).defaultValue());
        assertEquals("A  ", seen.columns().get(3).defaultValue());
        assertEquals(List.of("CUSTOMER_UNIQUE_1", "CUSTOMER_BY_BORN"), seen.indexes().stream().map(IndexDef::name).toList());
        assertTrue(seen.indexes().get(0).unique() && seen.indexes().get(0).constraint());
        assertEquals("tell.t" + seen.id(), seen.rowDomain());
        assertEquals("tell.t" + seen.id() + ".pk", seen.pkTree());
        assertNull(seen.ridTree(), "the primary key serves full scans");
        assertNotEquals(seen.indexes().get(0).treeName(), seen.indexes().get(1).treeName());

        pn2.createIndex("CUSTOMER", "BY_EMAIL_KIND", List.of("EMAIL", "KIND"), true, false);
        assertEquals(3, pn1.table("CUSTOMER").indexes().size());
        assertTrue(pn1.dropIndex("CUSTOMER_BY_BORN", false));
        assertEquals(List.of("CUSTOMER_UNIQUE_1", "BY_EMAIL_KIND"),
                pn2.table("CUSTOMER").indexes().stream().map(IndexDef::name).toList());
        assertTrue(pn2.dropTable("CUSTOMER", false));
        assertTrue(pn1.snapshot().table("CUSTOMER").isEmpty());
        assertEquals(4, pn1.snapshot().version(), "create, create index, drop index, drop");
    }

    @Test
    void revalidationCostsOneRoundTripWhenNothingChanged() {
        CountingRecordStore counting = new CountingRecordStore(store);
        new Catalog(store).createTable(customers("T"), false);
        Catalog pn = new Catalog(counting);
        pn.snapshot();
        long before = counting.counts().total();
        CatalogSnapshot again = pn.snapshot();
        assertEquals(1, counting.counts().total() - before);
        assertSame(again, pn.cached());
        before = counting.counts().total();
        assertSame(again, pn.atLeast(1), "the cache is new enough: no round trip");
        assertEquals(0, counting.counts().total() - before);
        new Catalog(store).createTable(customers("U"), false);
        assertEquals(2, pn.atLeast(2).version(), "behind a known version: revalidated");
        assertEquals(2, counting.counts().total() - before, "directory, then the one new definition");
    }

    @Test
    void createExistingFailsOrIsANoOpWithIfNotExists() {
        Catalog pn1 = new Catalog(store);
        Catalog pn2 = new Catalog(store);
        TableDef t = pn1.createTable(customers("T"), false);
        TellException e = assertThrows(TellException.class, () -> pn2.createTable(customers("T"), false));
        assertSame(ErrorCode.DUPLICATE_OBJECT, e.code());
        assertEquals("table T already exists", e.getMessage());
        assertEquals(t, pn2.createTable(TableSpec.builder("T").column("X", ColumnType.BOOLEAN).build(), true));
        assertEquals(1, pn2.snapshot().version(), "IF NOT EXISTS on an existing table changes nothing");
        assertSame(ErrorCode.DUPLICATE_OBJECT, codeOf(() -> pn2.createIndex("T", "T_BY_BORN", List.of("ID"), false, false)));
        pn2.createIndex("T", "T_BY_BORN", List.of("ID"), false, true);
        assertEquals(1, pn2.snapshot().version());
    }

    @Test
    void dropRemovesAndARecreatedTableGetsFreshStorage() {
        Catalog pn = new Catalog(store);
        TableDef first = pn.createTable(customers("T"), false);
        assertTrue(pn.dropTable("T", false));
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf(() -> pn.table("T")));
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf(() -> pn.dropTable("T", false)));
        assertFalse(pn.dropTable("T", true));
        assertSame(ErrorCode.UNDEFINED_OBJECT, codeOf(() -> pn.dropIndex("NOPE", false)));
        assertFalse(pn.dropIndex("NOPE", true));
        TableDef second = pn.createTable(customers("T"), false);
        assertNotEquals(first.rowDomain(), second.rowDomain());
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> pn.dropIndex("T_UNIQUE_1", false)),
                "a constraint's index goes with the constraint");
    }

    @Test
    void badDefinitionsAreRefusedClearly() {
        Catalog pn = new Catalog(store);
        TellException dup = assertThrows(TellException.class, () -> pn.createTable(TableSpec.builder("T")
                .column("A", ColumnType.INTEGER).column("A", ColumnType.BIGINT).build(), false));
        assertSame(ErrorCode.INVALID_DEFINITION, dup.code());
        assertEquals("table T has column A twice", dup.getMessage());
        TellException pk = assertThrows(TellException.class, () -> pn.createTable(TableSpec.builder("T")
                .column("A", ColumnType.INTEGER).primaryKey("B").build(), false));
        assertEquals("PRIMARY KEY of table T names unknown column B", pk.getMessage());
        TellException len = assertThrows(TellException.class, () -> pn.createTable(TableSpec.builder("T")
                .column("A", ColumnType.varchar(0)).build(), false));
        assertSame(ErrorCode.INVALID_DEFINITION, len.code());
        assertTrue(len.getMessage().contains("VARCHAR length"), len.getMessage());
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> pn.createTable(TableSpec.builder("T").build(), false)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> pn.createTable(TableSpec.builder("T")
                .column("A", ColumnType.INTEGER).index("I", false, "Z").build(), false)));
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> pn.createTable(TableSpec.builder("T")
                .column("A", ColumnType.INTEGER).foreignKey(List.of("A"), "MISSING", List.of()).build(), false)));
        assertEquals(0, pn.snapshot().version(), "nothing was created");
    }

    @Test
    void foreignKeysAreStoredWithTheReferencedKeyResolved() {
        Catalog pn = new Catalog(store);
        pn.createTable(customers("CUSTOMER"), false);
        pn.createTable(TableSpec.builder("ORDERS").column("ID", ColumnType.BIGINT).column("CUST", ColumnType.INTEGER)
                .primaryKey("ID").foreignKey(List.of("CUST"), "CUSTOMER", List.of()).build(), false);
        ForeignKeyDef fk = new Catalog(store).table("ORDERS").foreignKeys().get(0);
        assertEquals(new ForeignKeyDef("ORDERS_FK_1", List.of("CUST"), "CUSTOMER", List.of("ID")), fk);
        assertSame(ErrorCode.INVALID_DEFINITION, codeOf(() -> pn.dropTable("CUSTOMER", false)));
        pn.dropTable("ORDERS", false);
        assertTrue(pn.dropTable("CUSTOMER", false));
    }

    @Test
    void concurrentIndexChangesOnOneTableAllSurvive() throws Exception {
        new Catalog(store).createTable(TableSpec.builder("T").column("A", ColumnType.INTEGER)
                .column("B", ColumnType.varchar(5)).build(), false);
        int nodes = 4;
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            CyclicBarrier start = new CyclicBarrier(nodes);
            List<Future<?>> done = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                int node = n;
                done.add(pool.submit(() -> {
                    Catalog pn = new Catalog(store);
                    start.await();
                    for (int i = 0; i < 5; i++) {
                        pn.createIndex("T", "I_" + node + "_" + i, List.of(i % 2 == 0 ? "A" : "B"), false, false);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        TableDef t = new Catalog(store).table("T");
        assertEquals(nodes * 5, t.indexes().size());
        assertEquals(nodes * 5, t.indexes().stream().map(IndexDef::treeName).distinct().count());
    }

    @Test
    void concurrentDdlFromManyNodesLosesNothing() throws Exception {
        int nodes = 4;
        int perNode = 8;
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            CyclicBarrier start = new CyclicBarrier(nodes);
            List<Future<?>> done = new ArrayList<>();
            for (int n = 0; n < nodes; n++) {
                int node = n;
                done.add(pool.submit(() -> {
                    Catalog pn = new Catalog(store);
                    start.await();
                    for (int i = 0; i < perNode; i++) {
                        pn.createTable(customers("T_" + node + "_" + i), false);
                        pn.createTable(customers("SHARED_" + i), true); // every node races for the same names
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        CatalogSnapshot cat = new Catalog(store).snapshot();
        assertEquals(nodes * perNode + perNode, cat.tables().size());
        assertEquals(nodes * perNode + perNode, cat.version(), "one version per table actually created");
        assertEquals(cat.tables().size(), cat.tables().stream().map(TableDef::rowDomain).distinct().count());
    }
}
