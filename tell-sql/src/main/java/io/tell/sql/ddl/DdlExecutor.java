package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.IndexEntry;
import io.tell.sql.Catalog;
import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ColumnType;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SchemaPath;
import io.tell.sql.SequenceDef;
import io.tell.sql.TableChange;
import io.tell.sql.TableDef;
import io.tell.sql.TableSpec;
import io.tell.sql.TableStore;
import io.tell.sql.Views;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link DdlStatement}s against a processing node's catalog. CREATE INDEX is online: it
 * publishes the index write-only, waits for the writers that began before, fills the index from
 * the rows already in the table (in transactions of {@value #BACKFILL_BATCH} rows each, found
 * through the tree listing every row, so the cost follows the rows, not the sparse rids; a
 * non-unique index takes the rows' entries straight into its tree, a unique one has every row
 * rewritten with {@code Transaction.reindex}, so its commit adds the row's entry and claims its
 * key), then publishes it readable. If that fails (duplicates for
 * a unique index: {@link ErrorCode#DUPLICATE_KEY}) the index is dropped again.
 */
public final class DdlExecutor {
    /** Tree entries (rows) looked at per backfill transaction. */
    static final int BACKFILL_BATCH = 1000;
    /** Tries of one backfill transaction before its page is split (conflicts) or the CREATE INDEX fails. */
    private static final int ATTEMPTS = 5;

    private DdlExecutor() {
    }

    /** Runs {@code statement}, its names found along {@code path}; returns 0, the update count of DDL. */
    public static long execute(ProcessingNode node, DdlStatement written, SchemaPath path) {
        Catalog catalog = node.catalog();
        DdlStatement statement = DdlNames.resolve(written, catalog.snapshot(), path);
        switch (statement) {
            case DdlStatement.CreateSchema c -> catalog.createSchema(c.name(), c.ifNotExists());
            case DdlStatement.DropSchema d -> {
                if (catalog.dropSchema(d.name(), d.ifExists(), d.cascade())) {
                    node.keepIndexesOf(catalog.snapshot());
                }
            }
            case DdlStatement.CreateTable c -> createTable(catalog, c);
            case DdlStatement.CreateIndex c -> createIndex(node, c);
            case DdlStatement.DropTable d -> {
                if (catalog.dropTable(d.name(), d.ifExists(), d.cascade())) {
                    node.keepIndexesOf(catalog.snapshot());
                }
            }
            case DdlStatement.DropIndex d -> dropIndex(node, d.name(), d.ifExists());
            case DdlStatement.CreateSequence c ->
                    catalog.createSequence(sequence(c.name(), c.options(), null, null, null), c.ifNotExists());
            case DdlStatement.DropSequence d -> catalog.dropSequence(d.name(), d.ifExists());
            case DdlStatement.AlterTable a -> AlterTableExecutor.execute(node, a);
            case DdlStatement.CreateView v -> catalog.createView(
                    Views.define(catalog.snapshot(), path, v.name(), v.columns(), v.query()), v.orReplace());
            case DdlStatement.DropView d -> catalog.dropView(d.name(), d.ifExists(), d.cascade());
            case DdlStatement.Truncate t -> {
                catalog.truncate(t.tables(), t.restartIdentity(), t.cascade());
                node.keepIndexesOf(catalog.snapshot());
            }
        }
        return 0;
    }

    /**
     * The catalog's form of a CREATE TABLE, with the sequences its identity and SERIAL columns
     * own (named {@code <TABLE>_<COLUMN>_SEQ}, as PostgreSQL names them); DEFAULT values are
     * coerced to their column types here.
     */
    private static void createTable(Catalog catalog, DdlStatement.CreateTable c) {
        List<ColumnDef> columns = new ArrayList<>();
        List<SequenceDef> owned = new ArrayList<>();
        for (DdlStatement.Column col : c.columns()) {
            columns.add(column(c.name(), col, owned));
        }
        TableSpec spec = new TableSpec(c.name(), columns, c.primaryKey(), c.uniques(), c.foreignKeys(), c.checks());
        catalog.createTable(spec, owned, c.ifNotExists());
    }

    /**
     * The catalog's form of a column of table {@code table}; a sequence it owns (identity,
     * SERIAL) is added to {@code owned}. DEFAULT values are coerced to the column's type.
     */
    static ColumnDef column(String table, DdlStatement.Column col, List<SequenceDef> owned) {
        try {
            ColumnDef def = new ColumnDef(col.name(), col.type(), col.nullable(), col.defaultValue());
            if (col.owned() != null) {
                SequenceDef q = sequence(table + "_" + col.name() + "_SEQ", col.owned(), col.type(), table, col.name());
                owned.add(q);
                def = def.withSequence(q.name(), col.identity());
            } else if (col.defaultSequence() != null) {
                def = def.withSequence(col.defaultSequence(), ColumnDef.Identity.NONE);
            } else if (col.defaultFunction() != null) {
                def = def.withDefaultFunction(col.defaultFunction());
            }
            return def;
        } catch (TellException e) {
            throw TellException.of(e.code(), "table " + table + ": " + e.getMessage(), e);
        }
    }

    /**
     * A sequence from its options, with PostgreSQL's defaults: INCREMENT 1; counting up from
     * MINVALUE 1 to the type's maximum, or down from MAXVALUE -1 to its minimum; START at the
     * first of them; the type is AS, else the identity column's, else BIGINT.
     */
    static SequenceDef sequence(String name, DdlStatement.SequenceOptions o, ColumnType columnType, String owner,
                                String column) {
        ColumnType type = o.type() != null ? o.type() : columnType != null ? columnType : ColumnType.BIGINT;
        long bound = switch (type.type()) {
            case SMALLINT -> Short.MAX_VALUE;
            case INTEGER -> Integer.MAX_VALUE;
            case BIGINT -> Long.MAX_VALUE;
            default -> throw TellException.of(ErrorCode.INVALID_DEFINITION, (column != null ? "identity column "
                    + column : "sequence " + name) + " must be SMALLINT, INTEGER or BIGINT, not " + type);
        };
        long increment = o.increment() != null ? o.increment() : 1;
        long min = o.min() != null ? o.min() : increment > 0 ? 1 : -bound - 1;
        long max = o.max() != null ? o.max() : increment > 0 ? bound : -1;
        if (max > bound || min < -bound - 1) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "MINVALUE and MAXVALUE of sequence " + name
                    + " must lie within its type " + type);
        }
        long start = o.start() != null ? o.start() : increment > 0 ? min : max;
        int cache = o.cache() != null ? o.cache() : SequenceDef.DEFAULT_CACHE;
        return new SequenceDef(name, 0, start, increment, min, max, cache, owner, column);
    }

    /**
     * CREATE INDEX online (F1's states): the index is published write-only, so every
     * transaction that begins from then on keeps it; transactions that began before it and are
     * still running either finish first ({@link OlderWriters}) or fail their commit, which
     * checks the catalog (see {@code Session}); then the backfill indexes the rows already
     * there, and the index is published readable. A failure drops it again.
     */
    private static void createIndex(ProcessingNode node, DdlStatement.CreateIndex c) {
        if (c.ifNotExists() && node.catalog().snapshot().tableOfIndex(c.name()).isPresent()) {
            return;
        }
        createIndex(node, c.table(), c.name(), c.columns(), c.unique(), false, c.ifNotExists(), c.descending());
    }

    /** CREATE INDEX, or with {@code constraint} ALTER TABLE ... ADD UNIQUE: the same steps. */
    static void createIndex(ProcessingNode node, String table, String name, List<String> columns, boolean unique,
                            boolean constraint, boolean ifNotExists, List<String> descending) {
        TableDef def = node.catalog().createIndex(table, name, columns, unique, constraint, ifNotExists, descending);
        try {
            OlderWriters.await(node.transactions());
            backfill(node, node.table(def), name);
            node.catalog().publishIndex(name);
        } catch (TellException e) {
            try {
                if (constraint) {
                    node.catalog().alterTable(table, true, List.of(new TableChange.DropConstraint(name, true)));
                    node.keepIndexesOf(node.catalog().snapshot());
                } else {
                    dropIndex(node, name, true);
                }
            } catch (TellException dropFailed) {
                e.addSuppressed(dropFailed);
            }
            if (e.code() == ErrorCode.DUPLICATE_KEY) {
                throw TellException.of(ErrorCode.DUPLICATE_KEY, "could not create unique " + (constraint ? "constraint "
                        : "index ") + name + ": table " + table + " has rows with equal keys (" + e.getMessage() + ")", e);
            }
            throw e;
        }
    }

    /**
     * Indexes every row the table has: walks the tree listing all its rows (primary key or
     * rid tree) in pages of {@value #BACKFILL_BATCH} entries, once the node keeps the index, and
     * indexes the rows of each page a snapshot sees. Rows committed before the walk passes
     * their place are in the tree; rows committed later are indexed by their own commits.
     * The cost follows the rows, not the rids (which are sparse, floored by the clock).
     */
    private static void backfill(ProcessingNode node, TableStore table, String index) {
        IndexEntry after = null;
        while (true) {
            List<IndexEntry> page = table.rowEntries(after, BACKFILL_BATCH);
            if (page.isEmpty()) {
                return;
            }
            List<Long> rids = new ArrayList<>(page.size());
            for (IndexEntry e : page) {
                rids.add(e.rid());
            }
            reindex(node, table, index, rids);
            if (page.size() < BACKFILL_BATCH) {
                return;
            }
            after = page.get(page.size() - 1);
        }
    }

    /**
     * Reindexes {@code rids} in one transaction under the catalog as it is then. A page that
     * keeps conflicting with writers is split down to single rows; a row that keeps conflicting
     * is left: every version written since the index was published (the backfill begins after
     * every older writer ended) was written by a transaction that keeps the index itself. A
     * catalog changed by other DDL only makes the page run again under the new one;
     * UNDEFINED_OBJECT once the index itself is gone.
     */
    private static void reindex(ProcessingNode node, TableStore table, String index, List<Long> rids) {
        if (!table.isUnique(index)) {
            addEntries(node, table, index, rids);
            return;
        }
        int conflicts = 0;
        int failures = 0;
        while (true) {
            CatalogSnapshot cat = catalogHolding(node, table, index);
            try (Transaction tx = node.transactions().begin()) {
                tx.requireUnchanged(Catalog.DIRECTORY, cat.storeVersion());
                table.reindex(tx, index, rids);
                tx.commit();
                return;
            } catch (TellException e) {
                if (!e.retriable()) {
                    throw e;
                }
                if (node.catalog().snapshot().storeVersion() != cat.storeVersion()) {
                    continue; // other DDL published meanwhile
                }
                if (e.code() != ErrorCode.TX_CONFLICT) {
                    if (++failures >= ATTEMPTS) {
                        throw e;
                    }
                    continue;
                }
                if (++conflicts < ATTEMPTS) {
                    continue;
                }
                if (rids.size() > 1) {
                    for (List<Long> half : List.of(rids.subList(0, rids.size() / 2), rids.subList(rids.size() / 2, rids.size()))) {
                        reindex(node, table, index, half);
                    }
                }
                return;
            }
        }
    }

    /**
     * Fills a non-unique index for {@code rids} without rewriting the rows: the entries of the
     * versions a reader's snapshot sees, added to the tree at once. No check of the rows is
     * needed. Every writer that began before the index was published has ended, so a snapshot
     * taken now sees each row's last version written without the index; any later version's
     * writer keeps the index itself, so an entry read from a version it replaces is only stale,
     * as an updated row's old key is (readers skip it). What must hold is that the index still
     * lives in this tree while its entries go in: the catalog's version is read with the rows,
     * just before the insert, and a drop's storage is purged a grace period (a minute by
     * default) after the drop, and only once the snapshots older than its notice have ended
     * (docs/gc.md). A unique index instead rewrites its rows ({@link #reindex}):
     * a row changed after the snapshot must make the page read again, or its old key could be
     * taken for a duplicate.
     */
    private static void addEntries(ProcessingNode node, TableStore table, String index, List<Long> rids) {
        int failures = 0;
        while (true) {
            CatalogSnapshot cat = catalogHolding(node, table, index);
            try (Transaction tx = node.transactions().beginReadOnly()) {
                tx.readAlong(Catalog.DIRECTORY);
                Map<Long, byte[]> rows = table.visibleRows(tx, rids);
                long seen = tx.alongVersion() >= 0 ? tx.alongVersion() : node.catalog().snapshot().storeVersion();
                if (seen != cat.storeVersion()) {
                    continue; // other DDL published meanwhile: look again under the new catalog
                }
                table.addEntries(index, rows);
                return;
            } catch (TellException e) {
                if (!e.retriable() || ++failures >= ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    /**
     * The catalog as it is now, which must still hold {@code index} in the tree {@code table}
     * fills: a drop, or a drop and a create under the same name, or a TRUNCATE (fresh storage)
     * meanwhile fails the CREATE INDEX with UNDEFINED_OBJECT rather than fill a tree no one reads.
     */
    private static CatalogSnapshot catalogHolding(ProcessingNode node, TableStore table, String index) {
        CatalogSnapshot cat = node.catalog().snapshot();
        TableDef now = cat.tableOfIndex(index).orElseThrow(() ->
                TellException.of(ErrorCode.UNDEFINED_OBJECT, "index " + index + " was dropped while being created"));
        if (!now.index(index).treeName().equals(table.def().index(index).treeName())) {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "index " + index + " was dropped and created again, or its"
                    + " table truncated, while being created; run CREATE INDEX again");
        }
        return cat;
    }

    static void dropIndex(ProcessingNode node, String name, boolean ifExists) {
        if (node.catalog().dropIndex(name, ifExists)) {
            node.keepIndexesOf(node.catalog().snapshot()); // this node stops at once; others at their next transaction
        }
    }
}
