package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.KeyEncoder;
import io.tell.index.ScanRange;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.internal.IndexKeySize;
import io.tell.sql.internal.RidAllocator;
import io.tell.sql.internal.RowLayout;
import io.tell.store.RecordKey;
import io.tell.txn.IndexedRow;
import io.tell.txn.RowMerge;
import io.tell.txn.RowProjection;
import io.tell.txn.TableIndex;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Rows of one table, read and written in {@link Transaction}s of one processing node. Rows are
 * {@code Object[]} in column order; on the way in every value is coerced to its column's type
 * and NOT NULL is checked, on the way out values have their type's Java class. Each row is one
 * record keyed by its rid in the table's row domain. The primary key and every UNIQUE
 * constraint or index are {@link TableIndex}es the transaction manager keeps at commit; a
 * duplicate key fails the commit with {@link ErrorCode#DUPLICATE_KEY}. A unique key with a NULL
 * column is not constrained (SQL semantics).
 *
 * <p>Every table can be scanned in full ({@link #scanAll}): through its primary key, or, without
 * one, through the table's rid tree, a {@link TableIndex} with one entry per row kept like any
 * other (so SERIALIZABLE transactions see phantoms of full scans too).
 *
 * <p>Thread-safe; one per table definition and node. An index dropped from the catalog stays
 * maintained by a node's transaction manager until the node is told
 * ({@link io.tell.txn.TransactionManager#removeIndex}) or restarted.
 */
public final class TableStore {
    /** Rids reserved per counter round trip. */
    public static final int RID_BATCH = 100;

    /** The one key of the rid tree: its entries then order by rid. */
    private static final byte[] ALL_ROWS_KEY = new byte[0];

    /** A row with its rid. */
    public record Row(long rid, Object[] values) {
    }

    private final TableDef def;
    private final RowLayout codec;
    /** What this table's UPDATEs merge with newer committed versions of their rows by ({@link RowMerger}). */
    private final RowMerger.Table merging;
    private final TableIndex primaryKey;
    private final KeyEncoder pkEncoder;
    private final TableIndex allRows;
    private final Map<String, TableIndex> indexes = new LinkedHashMap<>();
    private final Map<String, KeyEncoder> encoders = new LinkedHashMap<>();
    /** Per index (null: the primary key), the check of its keys' length. */
    private final Map<String, IndexKeySize> keySizes = new LinkedHashMap<>();
    private final RidAllocator rids;
    /** Per index, the projections of the column arrays read through it (by identity; see {@link #used}). */
    private final Map<TableIndex, Map<int[], RowProjection>> projections = new java.util.concurrent.ConcurrentHashMap<>();
    /** Rows of a scan at most for which the primary key's hints learn where they are. */
    private static final int HINTED_ROWS = 16;
    /** Per unique index (null: the primary key), where its keys were last found (see {@link KeyRids}). */
    private final Map<String, KeyRids> keyRids = new HashMap<>();
    /**
     * Writes of a transaction at most by the time of an insert that teaches the primary key's
     * hints where the inserted row is: an ordinary transaction reads its own rows back by key
     * without a store call, while a bulk load does not fill the hints for nothing (a later
     * transaction finds a row through its key's claim).
     */
    private static final int HINTED_WRITES = 100;
    /** Rows this node inserted or deleted through this object (committed or not): when to sample the table's size again. */
    private final java.util.concurrent.atomic.LongAdder changes = new java.util.concurrent.atomic.LongAdder();

    public TableStore(TransactionManager tm, TableDef def) {
        this(tm, def, null);
    }

    /**
     * The store of {@code def}, keeping what {@code earlier} (this node's store of an earlier
     * definition of the same table, or null) learned of where the keys of the unique trees both
     * have live: an index added after a bulk load does not make the node forget the rows' rids.
     */
    public TableStore(TransactionManager tm, TableDef def, TableStore earlier) {
        this.def = def;
        this.codec = new RowLayout(def);
        boolean[] indexed = new boolean[def.columns().size()];
        for (int c : def.columnIndexes(def.primaryKey())) {
            indexed[c] = true;
        }
        for (IndexDef ix : def.indexes()) {
            for (int c : def.columnIndexes(ix.columns())) {
                indexed[c] = true;
            }
        }
        this.merging = new RowMerger.Table(codec, indexed, this::validate);
        this.rids = new RidAllocator(tm.store(), def.ridCounter(), TableDef.RID_COUNTER_KEY, RID_BATCH);
        if (def.pkTree() != null) {
            pkEncoder = encoder(def.primaryKey());
            primaryKey = index(tm, def.pkTree(), true, keyOf(def.primaryKey(), true, pkEncoder));
            keyRids.put(null, earlier == null ? new KeyRids() : earlier.hintsOf(def.pkTree()));
            keySizes.put(null, IndexKeySize.of(def, primaryKey, "primary key of table " + def.name(), def.primaryKey()));
        } else {
            pkEncoder = null;
            primaryKey = null;
        }
        allRows = def.ridTree() == null ? null : index(tm, def.ridTree(), false, row -> ALL_ROWS_KEY);
        for (IndexDef ix : def.indexes()) {
            KeyEncoder enc = encoder(ix.columns());
            encoders.put(ix.name(), enc);
            indexes.put(ix.name(), index(tm, ix.treeName(), ix.unique(), keyOf(ix.columns(), ix.unique(), enc)));
            keySizes.put(ix.name(), IndexKeySize.of(def, indexes.get(ix.name()), "index " + ix.name() + " of table " + def.name(),
                    ix.columns()));
            if (ix.unique()) {
                keyRids.put(ix.name(), earlier == null ? new KeyRids() : earlier.hintsOf(ix.treeName()));
            }
        }
    }

    /** The hints of the unique tree {@code tree} if this store has that tree, else new ones. */
    private KeyRids hintsOf(String tree) {
        if (primaryKey != null && tree.equals(def.pkTree())) {
            return keyRids.get(null);
        }
        for (IndexDef ix : def.indexes()) {
            if (ix.unique() && tree.equals(ix.treeName())) {
                return keyRids.get(ix.name());
            }
        }
        return new KeyRids();
    }

    public TableDef def() {
        return def;
    }

    /**
     * Inserts a row (a fresh rid) and returns its rid. Unless the transaction has written
     * {@value #HINTED_WRITES} records already, the primary key's hints learn where the key now
     * is, so that reading the row back by its key (in this transaction, or a later one of this
     * node that takes up the order it just inserted) costs at most the row read.
     */
    public long insert(Transaction tx, Object[] values) {
        byte[] row = encodeChecked(values);
        long rid = rids.next();
        tx.insertNew(def.rowDomain(), TableIndex.ridKey(rid), row);
        changes.increment();
        if (tx.writes() <= HINTED_WRITES) {
            learn(row, rid);
        }
        return rid;
    }

    /** Notes where a row with this content lives in the primary key's hints (see {@link KeyRids}). */
    private void learn(byte[] row, long rid) {
        KeyRids pk = keyRids.get(null);
        if (pk != null) {
            byte[] key = primaryKey.keyOf().apply(row);
            if (key != null) {
                pk.put(key, rid);
            }
        }
    }

    /** The row with {@code rid} as {@code tx} sees it, or null. */
    public Object[] get(Transaction tx, long rid) {
        byte[] bytes = tx.get(def.rowDomain(), TableIndex.ridKey(rid));
        return bytes == null ? null : codec.decode(bytes);
    }

    /** The row whose primary key is {@code key} (all key columns, in key order). */
    public Optional<Row> getByKey(Transaction tx, Object... key) {
        if (primaryKey == null) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "table " + def.name() + " has no primary key");
        }
        if (key.length != def.primaryKey().size()) {
            throw new IllegalArgumentException("primary key of " + def.name() + " has " + def.primaryKey().size()
                    + " columns, got " + key.length + " values");
        }
        List<Row> rows = range(tx, null, key, true, key, true, 2);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    /**
     * The row that holds {@code key} in the primary key ({@code index} null) or in unique index
     * {@code index}, as {@code tx} sees it (its own writes included); empty when none does.
     */
    public Optional<Row> holding(Transaction tx, String index, Object[] key) {
        List<Row> found = index == null ? getByKey(tx, key).map(List::of).orElse(List.of()) : lookup(tx, index, key);
        return found.stream().findFirst();
    }

    /**
     * DUPLICATE_KEY, in PostgreSQL's words, when a row {@code tx} sees already holds a unique key
     * (primary key or unique index) of {@code row}, which is about to be inserted: the check a
     * statement makes when its session checks conflicts at each statement instead of at commit.
     */
    public void checkUniqueKeys(Transaction tx, Object[] row) {
        if (!def.primaryKey().isEmpty()) {
            checkKey(tx, null, def.primaryKeyName(), def.primaryKey(), row);
        }
        for (IndexDef ix : def.indexes()) {
            if (ix.unique()) {
                checkKey(tx, ix.name(), ix.name(), ix.columns(), row);
            }
        }
    }

    private void checkKey(Transaction tx, String index, String constraint, List<String> columns, Object[] row) {
        Object[] key = io.tell.sql.exec.Rows.keyValues(row, def.columnIndexes(columns));
        if (key != null && !range(tx, index, new Bounds(key, true, key, true), Integer.MAX_VALUE, null, null, false).isEmpty()) {
            throw ConstraintErrors.duplicate(constraint, columns, key, null);
        }
    }

    /** TX_CONFLICT now when a row among {@code rids} that {@code tx} changed was changed by a transaction it does not see. */
    public void checkCurrent(Transaction tx, List<Long> rids) {
        List<io.tell.store.RecordKey> keys = new ArrayList<>(rids.size());
        for (long rid : rids) {
            keys.add(new io.tell.store.RecordKey(def.rowDomain(), TableIndex.ridKey(rid)));
        }
        tx.checkCurrent(keys);
    }

    /** Inner-node cache hits and misses of this table's index trees, summed (for metrics). */
    long[] treeCacheCounts() {
        long[] sum = primaryKey == null ? new long[2] : primaryKey.tree().cacheHitsAndMisses();
        for (TableIndex ix : indexes.values()) {
            long[] c = ix.tree().cacheHitsAndMisses();
            sum[0] += c[0];
            sum[1] += c[1];
        }
        return sum;
    }

    /** The rows whose leading columns of index {@code index} equal {@code prefix}, in key order. */
    public List<Row> lookup(Transaction tx, String index, Object... prefix) {
        return range(tx, index, prefix, true, prefix, true, Integer.MAX_VALUE);
    }

    /**
     * Up to {@code limit} rows in key order whose key in {@code index} (null: the primary key)
     * lies between two prefixes of key values: from {@code from} (inclusive or not) to
     * {@code to}. An empty prefix leaves that end open. Bounds compare by prefix: with
     * {@code from = (1)} exclusive, every key starting with 1 is excluded.
     */
    public List<Row> range(Transaction tx, String index, Object[] from, boolean fromInclusive,
                           Object[] to, boolean toInclusive, int limit) {
        return range(tx, index, from, fromInclusive, to, toInclusive, limit, null);
    }

    /**
     * As {@link #range(Transaction, String, Object[], boolean, Object[], boolean, int)}, with each
     * row's values only those of the columns at {@code wanted} (ascending; null: all).
     */
    public List<Row> range(Transaction tx, String index, Object[] from, boolean fromInclusive,
                           Object[] to, boolean toInclusive, int limit, int[] wanted) {
        return range(tx, index, from, fromInclusive, to, toInclusive, limit, wanted, wanted);
    }

    /**
     * As {@link #range(Transaction, String, Object[], boolean, Object[], boolean, int, int[])},
     * the statement using only the columns at {@code read} (ascending; null: all) of the rows
     * it decodes: what an UPDATE reads of the rows it changes ({@link #merge}).
     */
    public List<Row> range(Transaction tx, String index, Object[] from, boolean fromInclusive,
                           Object[] to, boolean toInclusive, int limit, int[] wanted, int[] read) {
        return range(tx, index, new Bounds(from, fromInclusive, to, toInclusive), limit, wanted, read, true);
    }

    /**
     * The range read itself; {@code viaClaims}: whether a point lookup of a key the node has not
     * met asks the key's claim first (not for a check that expects to find no row: a miss costs
     * the claim and then the index).
     */
    private List<Row> range(Transaction tx, String index, Bounds b, int limit, int[] wanted, int[] read, boolean viaClaims) {
        Target t = target(index);
        ScanRange range = scanRange(t, b);
        // A point lookup of a unique key goes straight to the row whose rid was last found for
        // it, or else to the row the key's claim names (one store call for both); if that row
        // holds the key, it is the only one (the key is unique), and no range is recorded for
        // read validation (see Transaction.lookupUnique, which the lookup uses otherwise).
        boolean point = limit > 0 && isUniquePoint(t, b);
        RowProjection used = read == null ? null : used(t, read);
        if (point) {
            byte[] key = range.lower().key();
            Long rid = t.rids().get(key);
            IndexedRow hit = rid != null ? hinted(tx, t, key, rid, used)
                    : viaClaims && !tx.holdsEntries(t.index(), range) ? tx.findClaimed(t.index(), key, used) : null;
            if (hit != null) {
                if (rid == null) {
                    t.rids().put(key, hit.rid());
                }
                return List.of(new Row(hit.rid(), wanted == null ? codec.decode(hit.row()) : codec.decode(hit.row(), wanted)));
            }
        }
        List<IndexedRow> found = point ? tx.lookupUnique(t.index(), range, used) : tx.scanIndex(t.index(), range, limit, used);
        if (point && found.size() == 1) {
            t.rids().put(range.lower().key(), found.get(0).rid());
        } else if (!point && found.size() <= HINTED_ROWS) {
            // A short scan (the oldest new order of a district, a customer by name) is often
            // followed by a write of a row it found, by primary key.
            for (IndexedRow r : found) {
                learn(r.row(), r.rid());
            }
        }
        return rows(found, wanted);
    }

    /** The row at {@code rid} if it holds {@code key} of {@code t}'s index as {@code tx} sees it, else null. */
    private IndexedRow hinted(Transaction tx, Target t, byte[] key, long rid, RowProjection used) {
        byte[] row = tx.get(def.rowDomain(), TableIndex.ridKey(rid), used);
        return row != null && Arrays.equals(key, t.index().keyOf().apply(row)) ? new IndexedRow(rid, row) : null;
    }

    /**
     * Whether every value of {@code b} fits its column of {@code index} (false: a value the
     * column's type cannot hold, which no row's key equals). Only the values are checked, never
     * the store, so a failing read is never taken for an empty match.
     */
    public boolean fits(String index, Bounds b) {
        Target t = target(index);
        try {
            scanRange(t, b);
            return true;
        } catch (TellException e) {
            return false;
        }
    }

    /** The bounds of a {@link #range} call: prefixes of key values, each end inclusive or not. */
    public record Bounds(Object[] from, boolean fromInclusive, Object[] to, boolean toInclusive) {
    }

    /**
     * Reads ahead, in a few store round trips, what {@link #range} with no limit will read for
     * each of {@code ranges} of {@code index}: a join about to look up many rows calls this once
     * for a batch of them.
     */
    public void prefetch(Transaction tx, String index, List<Bounds> ranges) {
        Target t = target(index);
        List<ScanRange> scanRanges = new ArrayList<>(ranges.size());
        List<Long> rids = new ArrayList<>();
        for (Bounds b : ranges) {
            ScanRange range;
            try {
                range = scanRange(t, b);
            } catch (TellException e) {
                continue; // A value the column cannot hold: the scan itself reports it (or matches nothing).
            }
            // A unique key whose row the node knows: that row, without the index leaf (the
            // lookup checks that the row still holds the key, as range does).
            Long rid = isUniquePoint(t, b)
                    ? t.rids().get(range.lower().key()) : null;
            if (rid != null) {
                rids.add(rid);
            } else {
                scanRanges.add(range);
            }
        }
        tx.prefetch(t.index(), scanRanges, rids);
    }

    /** True when the bounds are one whole key of a unique index: at most one row matches. */
    private static boolean isUniquePoint(Target t, Bounds b) {
        return t.rids() != null && b.from().length == t.columns().size() && b.fromInclusive() && b.toInclusive()
                && Arrays.equals(b.from(), b.to());
    }

    /** An index with what turns key values into its bounds, and for a unique one the rids of its keys. */
    private record Target(TableIndex index, KeyEncoder encoder, List<String> columns, KeyRids rids) {
    }

    private ScanRange scanRange(Target t, Bounds b) {
        ScanRange.Bound lower = null;
        if (b.from().length > 0) {
            byte[] p = prefixKey(t.encoder(), t.columns(), b.from());
            lower = b.fromInclusive() ? ScanRange.inclusive(p) : bound(KeyEncoder.prefixEnd(p), true);
        }
        ScanRange.Bound upper = null;
        if (b.to().length > 0) {
            byte[] p = prefixKey(t.encoder(), t.columns(), b.to());
            upper = b.toInclusive() ? bound(KeyEncoder.prefixEnd(p), false) : ScanRange.exclusive(p);
        }
        return new ScanRange(lower, upper);
    }

    private Target target(String index) {
        if (index == null) {
            if (primaryKey == null) {
                throw TellException.of(ErrorCode.INVALID_DEFINITION, "table " + def.name() + " has no primary key");
            }
            return new Target(primaryKey, pkEncoder, def.primaryKey(), keyRids.get(null));
        }
        IndexDef d = def.index(index);
        if (d == null) {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "table " + def.name() + " has no index " + index);
        }
        return new Target(indexes.get(index), encoders.get(index), d.columns(), keyRids.get(index));
    }

    /**
     * Every row {@code tx} sees: in primary-key order, or in rid order for a table without a
     * primary key.
     */
    public List<Row> scanAll(Transaction tx) {
        return scanAll(tx, null);
    }

    /** Every row {@code tx} sees, with only the columns at {@code columns} (ascending; null: all). */
    public List<Row> scanAll(Transaction tx, int[] columns) {
        if (allRows == null) {
            return range(tx, null, new Object[0], true, new Object[0], true, Integer.MAX_VALUE, columns);
        }
        RowProjection used = columns == null ? null : used(null, columns);
        return rows(tx.scanIndex(allRows, ScanRange.ALL, Integer.MAX_VALUE, used), columns);
    }

    /** Ranges a parallel scan cuts a table's tree into, per worker (more than one, so that uneven ranges even out). */
    public static final int PARTS_PER_WORKER = 4;

    /**
     * {@link #scanAll(Transaction, int[])}, keeping only the rows whose values {@code keep}
     * accepts (null: all), spread over {@code workers} when there are some and the transaction
     * can read in parallel ({@link Transaction#readsInParallel}): the table is cut into
     * {@link #parts} of a few per worker, each read, decoded and filtered on a worker, the
     * results joined in key order. {@code keep} must be safe to call from several threads at once.
     */
    public List<Row> scanAll(Transaction tx, int[] columns, io.tell.sql.exec.ExecContext.Workers workers,
                             java.util.function.Predicate<Object[]> keep) {
        List<ScanRange> parts = workers == null || workers.degree() < 2 || !tx.readsInParallel()
                ? List.of() : parts(workers.degree() * PARTS_PER_WORKER);
        if (parts.isEmpty()) {
            return kept(scanAll(tx, columns), keep);
        }
        workers.scans().increment();
        List<Function<Transaction, List<Row>>> reads = new ArrayList<>();
        for (ScanRange part : parts) {
            reads.add(reader -> scanPart(reader, columns, part, keep));
        }
        List<Row> out = new ArrayList<>();
        for (List<Row> part : tx.readInParallel(reads, workers.executor())) {
            out.addAll(part);
        }
        return out;
    }

    /**
     * About {@code n} ranges of keys (of the tree that lists every row) that together hold every
     * row once, in key order: the key space cut at the tree's upper nodes' separators
     * ({@link BTree#splitKeys}). Empty when the tree is a single leaf, too small to cut.
     */
    public List<ScanRange> parts(int n) {
        List<byte[]> cuts = rowTree().tree().splitKeys(n);
        return cuts.isEmpty() ? List.of() : ScanRange.between(cuts);
    }

    /**
     * The rows {@code tx} sees in {@code part} (one of {@link #parts}), in key order, with only
     * the columns at {@code columns} (null: all) and only those {@code keep} accepts (null: all).
     * Below SERIALIZABLE only: nothing is noted for validation.
     */
    public List<Row> scanPart(Transaction tx, int[] columns, ScanRange part, java.util.function.Predicate<Object[]> keep) {
        return kept(rows(tx.scanIndex(rowTree(), part, Integer.MAX_VALUE, null), columns), keep);
    }

    private static List<Row> kept(List<Row> rows, java.util.function.Predicate<Object[]> keep) {
        if (keep == null) {
            return rows;
        }
        List<Row> out = new ArrayList<>();
        for (Row r : rows) {
            if (keep.test(r.values())) {
                out.add(r);
            }
        }
        return out;
    }

    /**
     * What a read that decodes only {@code wanted} (ascending) through {@code t}'s index (null:
     * the rid tree, keyed on nothing) used of a row: those columns and the key's, whose values put
     * the row in the range scanned (or kept it out). Read validation compares only these
     * ({@link RowProjection}), and a column merge leaves them as read ({@link RowMerge}). Kept per
     * index and column array (a plan's arrays live as long as it).
     */
    private RowProjection used(Target t, int[] wanted) {
        Map<int[], RowProjection> byWanted = projections.computeIfAbsent(t == null ? allRows : t.index(),
                i -> java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>()));
        RowProjection p = byWanted.get(wanted);
        if (p == null) {
            int[] key = t == null ? new int[0] : def.columnIndexes(t.columns());
            int[] columns = java.util.stream.IntStream.concat(Arrays.stream(key), Arrays.stream(wanted)).distinct().sorted().toArray();
            p = (a, b) -> Arrays.deepEquals(codec.decode(a, columns), codec.decode(b, columns));
            byWanted.put(wanted, p);
        }
        return p;
    }

    private List<Row> rows(List<IndexedRow> found, int[] columns) {
        List<Row> out = new ArrayList<>(found.size());
        for (IndexedRow r : found) {
            out.add(new Row(r.rid(), columns == null ? codec.decode(r.row()) : codec.decode(r.row(), columns)));
        }
        return out;
    }

    /**
     * Makes {@code tx} add the rows it sees among {@code rids} to {@code index} when it commits,
     * as though they were new (one store round trip): how an index created over existing rows
     * is filled. Rids {@code tx} sees no row of are skipped. A unique index then refuses
     * duplicates with {@link ErrorCode#DUPLICATE_KEY} at commit. Returns the number of rows.
     */
    public int reindex(Transaction tx, String index, List<Long> rids) {
        TableIndex ix = index(index);
        List<RecordKey> keys = rowKeys(rids);
        List<byte[]> rows = tx.getAll(keys);
        int n = 0;
        for (int i = 0; i < keys.size(); i++) {
            if (rows.get(i) != null) {
                keySizes.get(index).check(rows.get(i));
                tx.reindex(ix, keys.get(i).key());
                n++;
            }
        }
        return n;
    }

    /** The rows {@code tx} sees among {@code rids}, by rid, in their order (one batch read). */
    public Map<Long, byte[]> visibleRows(Transaction tx, List<Long> rids) {
        List<RecordKey> keys = rowKeys(rids);
        List<byte[]> rows = tx.getAll(keys);
        Map<Long, byte[]> out = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (rows.get(i) != null) {
                out.put(TableIndex.ridOf(keys.get(i).key()), rows.get(i));
            }
        }
        return out;
    }

    /**
     * Adds the entries of {@code rows} (by rid, as {@link #visibleRows} gives them) to the
     * non-unique {@code index} at once, without writing the rows (the tree's batch insert): how
     * {@code CREATE INDEX} fills a non-unique index, where an entry of a version a concurrent
     * writer replaces is merely stale (see {@code DdlExecutor}). Returns the number of entries.
     */
    public int addEntries(String index, Map<Long, byte[]> rows) {
        TableIndex ix = index(index);
        if (ix.unique()) {
            throw new IllegalArgumentException("index " + index + " is unique: its rows are reindexed by their commits");
        }
        List<BTree.Insertion> entries = new ArrayList<>(rows.size());
        for (Map.Entry<Long, byte[]> row : rows.entrySet()) {
            byte[] key = ix.keyOf().apply(row.getValue());
            if (key != null) {
                keySizes.get(index).check(row.getValue());
                entries.add(new BTree.Insertion(ix.tree(), key, row.getKey()));
            }
        }
        BTree.insertAll(entries);
        return entries.size();
    }

    /** Whether {@code index} (one of this table's) is unique. */
    public boolean isUnique(String index) {
        return index(index).unique();
    }

    private TableIndex index(String index) {
        TableIndex ix = indexes.get(index);
        if (ix == null) {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "table " + def.name() + " has no index " + index);
        }
        return ix;
    }

    private List<RecordKey> rowKeys(List<Long> rids) {
        List<RecordKey> keys = new ArrayList<>(rids.size());
        for (long rid : new LinkedHashSet<>(rids)) {
            keys.add(new RecordKey(def.rowDomain(), TableIndex.ridKey(rid)));
        }
        return keys;
    }

    /**
     * Up to {@code limit} entries of the tree that lists every row of this table (the primary
     * key's, or the rid tree without one) after {@code after} (null: from the first), read
     * from the tree itself, outside any transaction: a walk over all rows whose cost follows
     * the rows, not the rids (rids are sparse). The tree is not versioned, so it may also list
     * rows that are deleted or not committed, and a row under two keys (updated); every row
     * committed before the walk reaches its place is listed.
     */
    public List<IndexEntry> rowEntries(IndexEntry after, int limit) {
        return (primaryKey != null ? primaryKey : allRows).tree().scanAfter(after, limit);
    }

    /** Locks the row with {@code rid} for {@code SELECT ... FOR UPDATE}; false when {@code tx} sees none. */
    public boolean lock(Transaction tx, long rid) {
        return tx.lock(def.rowDomain(), TableIndex.ridKey(rid));
    }

    /** Replaces the row with {@code rid}; false when {@code tx} sees none. */
    public boolean update(Transaction tx, long rid, Object[] values) {
        return update(tx, rid, values, null);
    }

    /**
     * Replaces the row with {@code rid}; false when {@code tx} sees none. With a {@code merge}
     * ({@link #merge}; null: none) a concurrent committed change of other columns is merged in
     * rather than a conflict.
     */
    public boolean update(Transaction tx, long rid, Object[] values, RowMerge merge) {
        return tx.update(def.rowDomain(), TableIndex.ridKey(rid), encodeChecked(values), merge);
    }

    /**
     * How an UPDATE merges ({@link RowMerger}) that assigned the columns at {@code assigned},
     * read of its rows only what its reads told the transaction (the columns of its condition
     * and new values), and set each column of {@code reapplied} from that column's value alone,
     * with the parameters and statement time of {@code ctx}. A commit that re-applies a column
     * validates the transaction's other reads, which makes its place after the writer it merges
     * with true (docs/transactions.md, "Column merges").
     */
    public RowMerge merge(int[] assigned, List<RowMerger.Reapplied> reapplied, ExecContext ctx) {
        boolean[] columns = new boolean[def.columns().size()];
        for (int c : assigned) {
            columns[c] = true;
        }
        if (reapplied.isEmpty()) {
            return new RowMerger(merging, columns, List.of(), null);
        }
        ctx.statementTime(); // fixed now: a re-application at commit uses the statement's time, not the clock's
        return new RowMerger(merging, columns, reapplied, ctx);
    }

    /** Deletes the row with {@code rid}; false when {@code tx} sees none. */
    public boolean delete(Transaction tx, long rid) {
        changes.increment();
        return tx.delete(def.rowDomain(), TableIndex.ridKey(rid));
    }

    /** Rows inserted or deleted through this object so far, committed or not ({@link TableSizes}). */
    long changes() {
        return changes.sum();
    }

    /**
     * About how many rows the table holds, from its row tree's shape ({@link io.tell.index.BTree#estimateEntries}):
     * two or three store round trips. Rows deleted but not yet swept count.
     */
    long estimateRows() {
        return rowTree().tree().estimateEntries();
    }

    /** The tree that lists every row once: the rid tree, or the primary key's when the table has no rid tree. */
    private TableIndex rowTree() {
        return allRows != null ? allRows : primaryKey;
    }

    /**
     * A full row from the values of some columns, the others taking their DEFAULT (NULL when
     * they have none), as an INSERT with a column list does. Not yet validated.
     */
    public Object[] withDefaults(Map<String, ?> values) {
        for (String name : values.keySet()) {
            if (def.columnIndex(name) < 0) {
                throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "table " + def.name() + " has no column " + name);
            }
        }
        Object[] row = new Object[def.columns().size()];
        for (int i = 0; i < row.length; i++) {
            ColumnDef c = def.columns().get(i);
            row[i] = values.containsKey(c.name()) ? values.get(c.name()) : c.defaultValue();
        }
        return row;
    }

    /**
     * The stored form of a row about to be written: validated, and with every index key
     * checked against the index key limit ({@link IndexKeySize}).
     */
    private byte[] encodeChecked(Object[] values) {
        byte[] row = codec.encode(validate(values));
        for (IndexKeySize k : keySizes.values()) {
            k.check(row);
        }
        return row;
    }

    /** {@code values} coerced to the column types, with NOT NULL checked. */
    public Object[] validate(Object[] values) {
        if (values.length != def.columns().size()) {
            throw TellException.of(ErrorCode.INVALID_DEFINITION, "table " + def.name() + " has "
                    + def.columns().size() + " columns, got " + values.length + " values");
        }
        Object[] row = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            ColumnDef c = def.columns().get(i);
            try {
                row[i] = c.type().coerce(values[i]);
            } catch (TellException e) {
                throw TellException.of(e.code(), "column " + def.name() + "." + c.name() + ": " + e.getMessage(), e);
            }
            if (row[i] == null && !c.nullable()) {
                throw TellException.of(ErrorCode.NOT_NULL_VIOLATION, "column " + def.name() + "." + c.name()
                        + " is NOT NULL");
            }
        }
        return row;
    }

    private byte[] prefixKey(KeyEncoder enc, List<String> columns, Object[] values) {
        if (values.length > columns.size()) {
            throw new IllegalArgumentException("index has " + columns.size() + " columns, got " + values.length + " values");
        }
        Object[] key = new Object[values.length];
        for (int i = 0; i < values.length; i++) {
            key[i] = def.columns().get(def.columnIndex(columns.get(i))).type().coerce(values[i]);
        }
        return enc.encodePrefix(key);
    }

    /** A bound at {@code key}; null (open) when there is no key past the prefix. */
    private static ScanRange.Bound bound(byte[] key, boolean inclusive) {
        if (key == null) {
            return null;
        }
        return inclusive ? ScanRange.inclusive(key) : ScanRange.exclusive(key);
    }

    private KeyEncoder encoder(List<String> columns) {
        return def.keyEncoder(columns);
    }

    /**
     * How a table's index tree {@code tree} is laid out: non-unique (key, rid) entries (uniqueness
     * lives in claim records), leaves inline in their mapping records (one write per leaf change
     * instead of a new physical record, its swing and the old record's delete; docs/btree.md).
     */
    static BTreeConfig treeConfig(String tree) {
        return BTreeConfig.of(tree, false).withInlineLeaves(true);
    }

    /** This node's index object for {@code tree}, registered with the transaction manager once. */
    private TableIndex index(TransactionManager tm, String tree, boolean unique, Function<byte[], byte[]> keyOf) {
        synchronized (tm) {
            for (TableIndex existing : tm.indexesOf(def.rowDomain())) {
                if (existing.name().equals(tree)) {
                    return existing;
                }
            }
            TableIndex ix = new TableIndex(def.rowDomain(), BTree.open(tm.store(), treeConfig(tree)), unique,
                    keyOf);
            tm.addIndex(ix);
            return ix;
        }
    }

    /** A row's key of the index over {@code columns}; none (null) with a NULL column when {@code unique}. */
    private Function<byte[], byte[]> keyOf(List<String> columns, boolean unique, KeyEncoder enc) {
        int[] positions = def.columnIndexes(columns);
        // The key columns in row order, decoded in one pass, and where each sits in that order.
        int[] inRowOrder = positions.clone();
        Arrays.sort(inRowOrder);
        int[] at = new int[positions.length];
        for (int i = 0; i < positions.length; i++) {
            at[i] = Arrays.binarySearch(inRowOrder, positions[i]);
        }
        return bytes -> {
            Object[] values = codec.decode(bytes, inRowOrder);
            Object[] key = new Object[positions.length];
            for (int i = 0; i < positions.length; i++) {
                key[i] = values[at[i]];
                if (key[i] == null && unique) {
                    return null;
                }
            }
            return enc.encode(key);
        };
    }
}
