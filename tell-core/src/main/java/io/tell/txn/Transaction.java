package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordKey;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A snapshot-isolation transaction at the key-value level. Reads see the snapshot the commit
 * manager handed out plus this transaction's own writes; writes are buffered and applied at
 * commit by {@link Committer}. Records read once are kept in the transaction buffer, so a
 * re-read costs no round trip. Not thread-safe: one thread drives a transaction.
 *
 * <p>A write is refused with {@link ErrorCode#TX_CONFLICT} as soon as the record's newest
 * version is invisible to this transaction (committed after its snapshot or still in flight):
 * first committer wins. A read fails so too once such a version shows on a hot record this
 * transaction wrote ({@link HotRecords}). After any failure the transaction is rolled back and
 * unusable.
 */
public final class Transaction implements AutoCloseable {
    enum State { ACTIVE, COMMITTED, ABORTED }

    /**
     * Index entries of scans a transaction below SERIALIZABLE notes at most, so that a commit
     * whose column merge re-applies a change can validate them; a transaction that scans more
     * (an analytical query), or reads more records than this, keeps none and merges no
     * re-applied change.
     */
    public static final int NOTED_ENTRIES = 10_000;

    /** What the buffer holds for one record: as read from the store, and the pending write. */
    static final class Entry {
        final RecordKey key;
        final Versioned stored;
        final MvccRecord record;
        /** Served by the node's shared buffer: good for this snapshot, possibly older than the store's. */
        final boolean buffered;
        boolean written;
        byte[] newRow;
        /** An index the commit fills for this row as if the row were new ({@link #reindex}). */
        TableIndex reindexed;
        /** Some read used the whole row (read validation compares versions, not values; no column merge). */
        boolean readWhole;
        /** The parts of the row the other reads used; null when no read narrowed it (the whole row counts). */
        List<RowProjection> readParts;
        /** How the pending write joins newer committed versions ({@link RowMerge}); null when it may not. */
        RowMerge merge;

        /** True when validation must compare whole versions: no read, or some read, used the whole row. */
        boolean usedWhole() {
            return readWhole || readParts == null;
        }

        Entry(RecordKey key, Versioned stored) {
            this(key, stored, false);
        }

        Entry(RecordKey key, Versioned stored, boolean buffered) {
            this.key = key;
            this.stored = stored;
            this.buffered = buffered;
            this.record = stored == null ? new MvccRecord(List.of()) : MvccRecord.decode(stored.value());
        }
    }

    private final TransactionManager manager;
    private final TxStart start;
    private final Isolation isolation;
    private final Map<RecordKey, Entry> buffer = new LinkedHashMap<>();
    /** The version sets this transaction has read, for the node's shared buffer; null until it reads through one. */
    private SharedRecordBuffer.TxUnits units;
    /** The index ranges this read-write transaction scanned, for validation ({@link #scanned}). */
    private final List<ReadValidator.ScannedRange> scans = new ArrayList<>();
    /** Index entries in {@link #scans} (a range that found none counts one); below SERIALIZABLE, past {@value #NOTED_ENTRIES} scans are no longer noted. */
    private int scannedEntries;
    /** Set below SERIALIZABLE once a scan went unnoted: no merge may then re-apply a change ({@link #readsValidatable}). */
    private boolean scansDropped;
    private final TreeReads treeReads = new TreeReads();
    /** The buffer's written entries, so that readers merging in their own writes need not walk every read. */
    private final List<Entry> written = new ArrayList<>();
    /** While a savepoint is open: each entry's state before each change since the oldest open one. */
    private final List<Undo> undo = new ArrayList<>();
    private int openSavepoints;
    /** Records that must still have these store versions when a commit with writes logs ({@link #requireUnchanged}). */
    private final Map<RecordKey, Long> preconditions = new LinkedHashMap<>();
    /** A record to read along with the next fetch of records ({@link #readAlong}); null when none is waiting. */
    private RecordKey along;
    /** The store version of {@link #along} once read (0: absent); -1 until then. */
    private long alongVersion = -1;
    /** Hot records this transaction wrote, read again along with each fetch of records. */
    private final WatchedRecords watched = new WatchedRecords();
    /** Set once readers of this snapshot read in parallel ({@link #readInParallel}): no later update merges. */
    private boolean readInParallel;

    /** What one change replaced in {@code entry}. */
    private record Undo(Entry entry, boolean written, byte[] newRow, TableIndex reindexed, RowMerge merge) {
    }

    /**
     * A point this transaction can go back to ({@link #rollbackTo}): SQL's SAVEPOINT. Taking
     * one costs nothing; while any is open each write also remembers what it replaced.
     */
    public record Savepoint(Transaction owner, int mark) {
    }
    private State state = State.ACTIVE;
    /** The lease id this transaction logs under (the node id when the node holds no lease). */
    private final String logNode;
    private final long leaseEpoch;

    /** Set on a reader of another transaction's snapshot ({@link #readInParallel}): its end tells no one. */
    private final boolean forked;

    Transaction(TransactionManager manager, TxStart start, Isolation isolation, String leaseId, long leaseEpoch) {
        this(manager, start, isolation, leaseId == null ? manager.nodeId() : leaseId, leaseEpoch, false);
    }

    private Transaction(TransactionManager manager, TxStart start, Isolation isolation, String logNode, long leaseEpoch,
                        boolean forked) {
        this.manager = manager;
        this.start = start;
        this.isolation = isolation;
        this.logNode = logNode;
        this.leaseEpoch = leaseEpoch;
        this.forked = forked;
    }

    /**
     * True when {@link #readInParallel} may run: below SERIALIZABLE (no read is validated later)
     * and before this transaction wrote anything (no read has its own writes to merge in), so
     * readers of its snapshot with buffers of their own read exactly what it would.
     */
    public boolean readsInParallel() {
        return state == State.ACTIVE && !forked && isolation != Isolation.SERIALIZABLE && written.isEmpty();
    }

    /**
     * Runs each of {@code reads} on {@code workers}, each on a reader of this transaction's
     * snapshot with a buffer of its own, and returns their results in order; the calling thread
     * waits. Only while {@link #readsInParallel}. The records the readers fetched are not kept
     * in this transaction's buffer (a later read or write here fetches again: a write still
     * conflicts with any version its snapshot does not see, and no later update merges with
     * one, as what the readers used is not noted here). When a read fails, the others are
     * waited for and the first failure is thrown; when a reader's store call failed (which
     * would have rolled this transaction back, had it read itself) this transaction rolls back.
     */
    public <T> List<T> readInParallel(List<java.util.function.Function<Transaction, T>> reads, java.util.concurrent.Executor workers) {
        if (!readsInParallel()) {
            throw new IllegalStateException("transaction " + start.tid() + " cannot read in parallel (SERIALIZABLE, written to, or ended)");
        }
        readInParallel = true;
        List<java.util.concurrent.CompletableFuture<T>> running = new ArrayList<>(reads.size());
        List<Transaction> readers = new ArrayList<>(reads.size());
        for (java.util.function.Function<Transaction, T> read : reads) {
            Transaction reader = new Transaction(manager, start, isolation, logNode, leaseEpoch, true);
            readers.add(reader);
            try {
                running.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> read.apply(reader), workers));
            } catch (java.util.concurrent.RejectedExecutionException e) { // the node is closing
                running.add(java.util.concurrent.CompletableFuture.failedFuture(
                        TellException.of(ErrorCode.CANCELLED, "the node's scan threads are shut down", e)));
            }
        }
        List<T> out = new ArrayList<>(reads.size());
        Throwable failed = null;
        for (java.util.concurrent.CompletableFuture<T> r : running) {
            try {
                out.add(r.join());
            } catch (java.util.concurrent.CompletionException | java.util.concurrent.CancellationException e) {
                if (failed == null) {
                    failed = e.getCause() == null ? e : e.getCause();
                }
            }
        }
        if (failed != null) {
            if (readers.stream().anyMatch(r -> r.state == State.ABORTED)) {
                rollback(); // a store call failed
            }
            if (failed instanceof RuntimeException re) {
                throw re;
            }
            if (failed instanceof Error err) {
                throw err;
            }
            throw TellException.of(ErrorCode.INTERNAL, "a parallel read failed: " + failed, failed);
        }
        return out;
    }

    public Isolation isolation() {
        return isolation;
    }

    /** This transaction's tid (negative for a read-only transaction). */
    public long tid() {
        return start.tid();
    }

    public SnapshotDescriptor snapshot() {
        return start.snapshot();
    }

    /**
     * The lowest active version when this transaction started: every tid at or below it had
     * completed and no running transaction could see past it (garbage below it may go).
     */
    public long lav() {
        return start.lav();
    }

    /** How many records this transaction has written so far (inserted, changed, deleted or locked). */
    public int writes() {
        return written.size();
    }

    public boolean readOnly() {
        return start.readOnly();
    }

    public boolean isActive() {
        return state == State.ACTIVE;
    }

    /** The row at {@code key} as this transaction sees it, or null. */
    public byte[] get(String domain, byte[] key) {
        return get(domain, key, null);
    }

    /**
     * The row at {@code key} as this transaction sees it, or null; the caller uses only the part
     * {@code used} says (null: the whole row), which is all read validation compares.
     */
    public byte[] get(String domain, byte[] key, RowProjection used) {
        Entry e = entry(new RecordKey(domain, key));
        markRead(e, used);
        return visibleRow(e);
    }

    /** Many rows in one round trip for those not yet buffered; null where there is none. */
    public List<byte[]> getAll(List<RecordKey> keys) {
        return readRows(keys, null);
    }

    /** {@link #getAll}, the caller using only the part {@code used} says of each row (null: all of it). */
    List<byte[]> readRows(List<RecordKey> keys, RowProjection used) {
        List<Entry> entries = fetch(keys);
        List<byte[]> out = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            markRead(e, used);
            out.add(visibleRow(e));
        }
        return out;
    }

    /**
     * The buffer's entries for {@code keys}, in order: those not yet buffered are fetched in one
     * round trip and buffered. One buffer lookup per key (and one insert per fetched record): a
     * scan of a large table buffers hundreds of thousands of records.
     */
    private List<Entry> fetch(List<RecordKey> keys) {
        checkActive();
        Entry[] entries = new Entry[keys.size()];
        List<RecordKey> missing = new ArrayList<>();
        int[] missingAt = new int[keys.size()];
        for (int i = 0; i < entries.length; i++) {
            entries[i] = buffer.get(keys.get(i));
            if (entries[i] == null) {
                missingAt[missing.size()] = i;
                missing.add(keys.get(i));
            }
        }
        if (missing.isEmpty()) {
            return Arrays.asList(entries);
        }
        // At every level: a SERIALIZABLE transaction that writes validates its reads against the
        // store anyway, and one that writes nothing may judge a copy as served (ReadValidator): a
        // copy lacks no version of a writer that precedes anything its snapshot sees.
        SharedRecordBuffer shared = manager.sharedBuffer();
        List<Entry> fetched = shared == null ? fetchFromStore(missing) : fetchThrough(shared, missing);
        for (int i = 0; i < fetched.size(); i++) {
            Entry prior = buffer.putIfAbsent(missing.get(i), fetched.get(i)); // a key asked for twice is buffered once
            entries[missingAt[i]] = prior != null ? prior : fetched.get(i);
        }
        return Arrays.asList(entries);
    }

    /**
     * The records of {@code missing} from the store in one call, with the record {@link #readAlong}
     * asked for and this transaction's watched hot records riding along; fails with the conflict
     * when a watched record shows a version this snapshot does not see.
     */
    private List<Entry> fetchFromStore(List<RecordKey> missing) {
        List<Versioned> got = readWithRiders(missing, ask -> ask.size() == 1
                ? manager.store().getAsync(ask.get(0)).thenApply(java.util.Collections::singletonList)
                : manager.store().getAllAsync(ask));
        List<Entry> fetched = new ArrayList<>(missing.size());
        for (int i = 0; i < missing.size(); i++) {
            fetched.add(new Entry(missing.get(i), got.get(i)));
        }
        return fetched;
    }

    /**
     * {@code keys} read by one store call of {@code read}, with the riders ({@link #riders})
     * after them, taken as read; returns what the call answered without the riders: the
     * records of {@code keys}, then anything it adds after the riders.
     */
    private List<Versioned> readWithRiders(List<RecordKey> keys,
                                           java.util.function.Function<List<RecordKey>, CompletableFuture<List<Versioned>>> read) {
        List<Entry> checked = watched.current();
        List<RecordKey> riders = riders(checked);
        List<RecordKey> ask = SharedRecordBuffer.concat(keys, riders);
        List<Versioned> got = guard(() -> TellException.join(read.apply(ask)));
        takeRiders(checked, got.subList(keys.size(), ask.size()));
        if (riders.isEmpty()) {
            return got;
        }
        List<Versioned> out = new ArrayList<>(got.subList(0, keys.size()));
        out.addAll(got.subList(ask.size(), got.size()));
        return out;
    }

    /** The records to read along with the next store call: the one {@link #readAlong} asked for, then the {@code checked} ones. */
    private List<RecordKey> riders(List<Entry> checked) {
        if (along == null && checked.isEmpty()) {
            return List.of();
        }
        List<RecordKey> riders = new ArrayList<>(checked.size() + 1);
        if (along != null) {
            riders.add(along);
        }
        for (Entry e : checked) {
            riders.add(e.key);
        }
        return riders;
    }

    /** Takes what {@link #riders} asked for, as read ({@code got}, in order). */
    private void takeRiders(List<Entry> checked, List<Versioned> got) {
        int next = 0;
        if (along != null) {
            Versioned v = got.get(next++);
            along = null;
            alongVersion = v == null ? 0 : v.version();
        }
        if (!checked.isEmpty()) {
            checkWatched(checked, got.subList(next, got.size()));
        }
    }

    /** Fails with the conflict when a watched record, as just read ({@code now}, in order), has a version this snapshot does not see. */
    private void checkWatched(List<Entry> checked, List<Versioned> now) {
        for (int i = 0; i < checked.size(); i++) {
            Versioned v = now.get(i);
            if (v != null && v.version() == checked.get(i).stored.version()) {
                continue; // unchanged since this transaction read it
            }
            Entry current = new Entry(checked.get(i).key, v);
            if (newerThanSnapshot(current) && !mergeable(checked.get(i), current.record)) {
                manager.hotRecords().foundEarly();
                throw conflictOn(current);
            }
        }
    }

    /** The records of {@code missing} through the node's shared buffer, with the riders of {@link #fetchFromStore} if it calls the store. */
    private List<Entry> fetchThrough(SharedRecordBuffer shared, List<RecordKey> missing) {
        if (units == null) {
            units = new SharedRecordBuffer.TxUnits();
        }
        List<Entry> checked = watched.current();
        List<RecordKey> riders = riders(checked);
        SharedRecordBuffer.Fetched got = guard(() -> shared.read(missing, start.snapshot(), units, riders));
        List<Entry> fetched = new ArrayList<>(missing.size());
        for (int i = 0; i < missing.size(); i++) {
            SharedRecordBuffer.Read read = got.reads().get(i);
            fetched.add(new Entry(missing.get(i), read.stored(), read.buffered()));
        }
        if (got.riders() != null) {
            takeRiders(checked, got.riders());
        }
        return fetched;
    }

    /** Notes what a read used of {@code e}, at every level: SERIALIZABLE validates it, and a column merge must leave it as read. */
    private void markRead(Entry e, RowProjection used) {
        if (used == null) {
            e.readWhole = true;
        } else if (e.readParts == null) {
            e.readParts = List.of(used); // most records are read once: an immutable one-element list
        } else if (!e.readWhole && !e.readParts.contains(used)) {
            List<RowProjection> parts = new ArrayList<>(e.readParts);
            parts.add(used);
            e.readParts = parts;
        }
    }

    /** The rows whose key in {@code index} is {@code key}, as this transaction sees them. */
    public List<IndexedRow> lookup(TableIndex index, byte[] key) {
        return scanIndex(index, io.tell.index.ScanRange.key(key), Integer.MAX_VALUE);
    }

    /** Up to {@code limit} rows with keys in {@code range} of {@code index}, in (key, rid) order. */
    public List<IndexedRow> scanIndex(TableIndex index, io.tell.index.ScanRange range, int limit) {
        return scanIndex(index, range, limit, null);
    }

    /**
     * {@link #scanIndex}, the caller using only the part {@code used} says of each row (null:
     * all of it); {@code used} must cover the columns of {@code index}'s key, which placed the
     * rows in the range (and kept others out).
     */
    public List<IndexedRow> scanIndex(TableIndex index, io.tell.index.ScanRange range, int limit, RowProjection used) {
        checkActive();
        return guard(() -> new IndexReader(manager, start).scan(this, buffer, index, range, limit, used, false));
    }

    /**
     * The row holding one key of a unique index: {@code range} must hold at most one key (every
     * column of {@code index} bound by equality). As {@link #scanIndex}, except that a row found
     * records no scanned range for read validation: the row is in the read set, and
     * another row can take the key only after a writer changed this one (unique claims), which
     * the validation of this row sees whenever that writer must come first. Finding none records
     * the range as any scan does.
     */
    public List<IndexedRow> lookupUnique(TableIndex index, io.tell.index.ScanRange range, RowProjection used) {
        if (!index.unique()) {
            throw new IllegalArgumentException("index " + index.name() + " is not unique");
        }
        checkActive();
        return guard(() -> new IndexReader(manager, start).scan(this, buffer, index, range, Integer.MAX_VALUE, used, true));
    }

    /**
     * The row holding unique key {@code key} of {@code index}, found through the key's claim
     * ({@link IndexWriter}): the claim and the row it names in one store call, with what rides
     * along ({@link #readAlong}, watched records). Null when that row, as this transaction sees
     * it, does not hold the key (no claim, a claim left by a deleted row or taken over after this
     * snapshot): the index, which is authoritative, must answer then. A row found is the only one
     * this snapshot sees with the key (claims let one live row hold it at a time) and is read as
     * {@link #lookupUnique} reads what it finds: no range recorded for read validation.
     */
    public IndexedRow findClaimed(TableIndex index, byte[] key, RowProjection used) {
        if (!index.unique()) {
            throw new IllegalArgumentException("index " + index.name() + " is not unique");
        }
        checkActive();
        List<Versioned> got = readWithRiders(List.of(new RecordKey(index.claimDomain(), key)),
                ask -> manager.store().getAllFollowingAsync(ask, index.table()));
        Versioned claim = got.get(0);
        if (claim == null || claim.value().length != Long.BYTES) {
            return null;
        }
        RecordKey rowKey = new RecordKey(index.table(), claim.value());
        Entry buffered = buffer.get(rowKey); // read or written before: as this transaction has it
        Entry e = buffered != null ? buffered : new Entry(rowKey, got.get(1));
        byte[] row = visibleRow(e);
        if (row == null || !Arrays.equals(key, index.keyOf().apply(row))) {
            return null; // a fetched row that is not the answer stays out of the buffer, which validation checks
        }
        if (buffered == null) {
            buffer.put(rowKey, e);
        }
        markRead(e, used);
        return new IndexedRow(TableIndex.ridOf(claim.value()), row);
    }

    /**
     * True when this transaction holds the entries of {@code range} of {@code index} already (a
     * read-ahead or an earlier scan of that range): looking it up costs no store call.
     */
    public boolean holdsEntries(TableIndex index, io.tell.index.ScanRange range) {
        return treeReads.holds(index, range);
    }

    /**
     * Reads ahead what {@link #scanIndex} with no limit will need for each of {@code ranges}:
     * the index entries of ranges that lie in one leaf each, all leaves in one batch, and then
     * every row they point to in one more, together with the rows at {@code rids} (rows the
     * caller expects its lookups to find, such as the rids its node remembers for unique keys).
     * A join looking up many outer rows' partners calls this first; the lookups themselves then
     * cost no round trip.
     */
    public void prefetch(TableIndex index, List<io.tell.index.ScanRange> ranges, List<Long> rids) {
        checkActive();
        guard(() -> {
            List<RecordKey> rows = new ArrayList<>();
            for (long rid : rids) {
                rows.add(new RecordKey(index.table(), TableIndex.ridKey(rid)));
            }
            for (long rid : treeReads.prefetch(index, ranges)) {
                rows.add(new RecordKey(index.table(), TableIndex.ridKey(rid)));
            }
            // Read ahead, not yet used: the scans that use the rows mark what they read.
            if (!rows.isEmpty()) {
                fetch(rows);
            }
            return null;
        });
    }

    /** Inserts a row; {@link ErrorCode#DUPLICATE_KEY} if a live row with this key is visible. */
    public void insert(String domain, byte[] key, byte[] row) {
        Entry e = entryForWrite(new RecordKey(domain, key), false);
        if (visibleRow(e) != null) {
            throw TellException.of(ErrorCode.DUPLICATE_KEY, "duplicate key " + e.key);
        }
        stage(e, row, null);
    }

    /**
     * Inserts a row under a key that no transaction has ever used, such as a freshly allocated
     * rid, without reading it first: no round trip. The commit writes it on condition that the
     * record is still absent, so a key that was in use after all fails the commit with
     * {@link ErrorCode#TX_CONFLICT} and nothing is overwritten.
     */
    public void insertNew(String domain, byte[] key, byte[] row) {
        checkActive();
        RecordKey k = new RecordKey(domain, key);
        checkWritable(k);
        if (buffer.containsKey(k)) {
            throw TellException.of(ErrorCode.DUPLICATE_KEY, "duplicate key " + k);
        }
        Entry e = new Entry(k, null);
        buffer.put(k, e);
        stage(e, row, null);
    }

    /** Replaces a visible row; false (and nothing buffered) when there is none. */
    public boolean update(String domain, byte[] key, byte[] row) {
        return update(domain, key, row, null);
    }

    /**
     * Replaces a visible row; false (and nothing buffered) when there is none. With a {@code merge}
     * (null: none), a newer committed version of the row that changed none of the columns this
     * update changed, nor any part of the row this transaction read, is no conflict: the commit
     * writes that version with this update's changes ({@link RowMerge}). The merge holds while
     * every write of the row in this transaction gives one.
     */
    public boolean update(String domain, byte[] key, byte[] row, RowMerge merge) {
        if (readInParallel) {
            merge = null; // the parallel readers' buffers noted what they read, not this one's
        }
        Entry e = entryForWrite(new RecordKey(domain, key), merge != null);
        if (visibleRow(e) == null) {
            return false;
        }
        stage(e, row, merge);
        if (newerThanSnapshot(e) && !mergeable(e, e.record)) {
            throw conflictOn(e);
        }
        return true;
    }

    /** Inserts or replaces. */
    public void put(String domain, byte[] key, byte[] row) {
        stage(entryForWrite(new RecordKey(domain, key), false), row, null);
    }

    /**
     * Locks a visible row as {@code SELECT ... FOR UPDATE} does: it joins the write set
     * unchanged, so a concurrent writer of it conflicts (first committer wins). False when
     * there is no visible row.
     */
    public boolean lock(String domain, byte[] key) {
        Entry e = entryForWrite(new RecordKey(domain, key), false);
        byte[] row = visibleRow(e);
        if (row == null) {
            return false;
        }
        if (!e.written) {
            stage(e, row, null);
        } else if (e.merge != null) {
            remember(e);
            e.merge = null; // a locked row merges with no one
        }
        return true;
    }

    /**
     * Rewrites a visible row of {@code index}'s table unchanged and has the commit add the
     * row's entry to {@code index} (and claim its key, for a unique index) as for a new row:
     * how an index created over existing rows is filled. A concurrent writer of the row
     * conflicts, as with {@link #lock}; a key another row holds fails the commit with
     * {@link ErrorCode#DUPLICATE_KEY}. {@code index} must be one the manager keeps
     * ({@link TransactionManager#addIndex}). False when there is no visible row.
     */
    public boolean reindex(TableIndex index, byte[] key) {
        if (!manager.indexesOf(index.table()).contains(index)) {
            throw new IllegalArgumentException("index " + index.name() + " is not kept by this transaction manager");
        }
        if (!lock(index.table(), key)) {
            return false;
        }
        Entry e = buffer.get(new RecordKey(index.table(), key));
        remember(e);
        e.reindexed = index;
        e.merge = null;
        return true;
    }

    /** Deletes a visible row; false when there is none. */
    public boolean delete(String domain, byte[] key) {
        Entry e = entryForWrite(new RecordKey(domain, key), false);
        if (visibleRow(e) == null) {
            return false;
        }
        remember(e);
        markWritten(e);
        e.newRow = null;
        e.merge = null;
        return true;
    }

    /**
     * Fails now with TX_CONFLICT (and rolls back), rather than at commit, when a record among
     * {@code keys} that this transaction wrote, and that existed when it read it, has a version
     * its snapshot does not see: one batched read. For SQL's statement-level conflict checks,
     * where a statement learns of a concurrent writer when it runs, as in PostgreSQL.
     */
    public void checkCurrent(List<RecordKey> keys) {
        checkActive();
        List<RecordKey> existing = new ArrayList<>();
        for (RecordKey k : keys) {
            Entry e = buffer.get(k);
            if (e != null && e.written && e.stored != null) {
                existing.add(k);
            }
        }
        if (existing.isEmpty()) {
            return;
        }
        List<Versioned> fresh = guard(() -> TellException.join(manager.store().getAllAsync(existing)));
        for (int i = 0; i < existing.size(); i++) {
            Entry now = new Entry(existing.get(i), fresh.get(i));
            if (newerThanSnapshot(now) && !mergeable(buffer.get(existing.get(i)), now.record)) {
                throw conflictOn(now);
            }
        }
    }

    /**
     * Makes a commit with writes conditional on record {@code key} still having store version
     * {@code version} (0: absent) when the commit logs, checked in the log write's batch at no
     * extra round trip; otherwise the commit fails with TX_CONFLICT before writing anything.
     * The SQL layer names the catalog's directory this way, so that no write made under one
     * catalog version commits after another was published. Read-only commits check nothing.
     */
    public void requireUnchanged(RecordKey key, long version) {
        checkActive();
        preconditions.put(key, version);
    }

    /**
     * Reads the record at {@code key} in the same store call as this transaction's next fetch of
     * records that are not buffered yet, at no round trip of its own; {@link #alongVersion()}
     * then gives its store version. The SQL layer checks the catalog's directory so: a statement
     * runs on the catalog it has cached and the check arrives with the statement's first rows.
     * Index leaves do not carry it, nor does a read the node's shared buffer serves entirely.
     */
    public void readAlong(RecordKey key) {
        checkActive();
        along = key;
        alongVersion = -1;
    }

    /** The store version of the record {@link #readAlong} asked for (0: absent), or -1 while it is unread. */
    public long alongVersion() {
        return alongVersion;
    }

    Map<RecordKey, Long> preconditions() {
        return preconditions;
    }

    /** Commits; throws TX_CONFLICT (retriable) when first-committer-wins says no. */
    public void commit() {
        checkActive();
        List<Entry> writes = new ArrayList<>();
        for (Entry e : buffer.values()) {
            if (e.written) {
                writes.add(e);
            }
        }
        Committer committer = new Committer(manager, this, writes);
        try {
            committer.commit();
            state = State.COMMITTED;
        } catch (RuntimeException | Error e) {
            // The committer has reverted and reported whatever it started; only a pending
            // commit report is still on its way.
            state = e instanceof TellException te && te.code() == ErrorCode.TX_COMMIT_PENDING
                    ? State.COMMITTED : State.ABORTED;
            if (e instanceof TellException te && te.code() == ErrorCode.TX_CONFLICT && committer.winner() != 0) {
                manager.ended(start.tid());
                manager.awaitEnded(committer.winner());
            }
            throw e;
        } finally {
            manager.ended(start.tid());
            manager.wrote(writes);
        }
    }

    TxStart start() {
        return start;
    }

    String logNode() {
        return logNode;
    }

    /** Throws {@link ErrorCode#TX_FENCED} once the lease this transaction began under is gone. */
    void checkLease() {
        manager.checkLease(leaseEpoch);
    }

    /** False once the lease this transaction began under is gone. */
    boolean holdsLease() {
        try {
            checkLease();
            return true;
        } catch (TellException e) {
            return false;
        }
    }

    /** Rolls back; nothing was written to the store before commit, so this only tells the commit manager. */
    public void rollback() {
        if (state != State.ACTIVE) {
            return;
        }
        state = State.ABORTED;
        if (forked) {
            return; // its transaction rolls back and reports
        }
        manager.ended(start.tid());
        manager.reportAborted(start.tid());
    }

    @Override
    public void close() {
        rollback();
    }

    /** The entries this transaction wrote, in the order first written, for the index reader. */
    List<Entry> writtenEntries() {
        return written;
    }

    /** The index entries this transaction has read, for the index reader. */
    TreeReads treeReads() {
        return treeReads;
    }

    /**
     * Called by the index reader: remembers a scanned range for validation, which SERIALIZABLE
     * makes at every commit with writes, and a commit below it only when a column merge
     * re-applied a change ({@link RowMerge#reapplies}). A read-only transaction keeps none: it
     * never re-scans ({@link ReadValidator}). {@code entries} is not changed afterwards.
     */
    void scanned(TableIndex index, io.tell.index.ScanRange range, List<io.tell.index.IndexEntry> entries) {
        if (start.readOnly() || scansDropped) {
            return;
        }
        scannedEntries += Math.max(1, entries.size()); // a range that found nothing is still one to re-scan
        if (isolation != Isolation.SERIALIZABLE && scannedEntries > NOTED_ENTRIES) {
            scansDropped = true;
            scans.clear();
            return;
        }
        scans.add(new ReadValidator.ScannedRange(index, range, entries));
    }

    /** The index ranges this transaction scanned, for its validation. */
    List<ReadValidator.ScannedRange> scans() {
        return scans;
    }

    /** Every record this transaction read or wrote, for its validation. */
    Iterable<Entry> entries() {
        return buffer.values();
    }

    /**
     * True when this transaction's reads can all be validated at commit: always under
     * SERIALIZABLE; below it, unless a scan went unnoted or it read more than {@value
     * #NOTED_ENTRIES} records (a validation re-reads them all, in one batch). A column merge
     * re-applies a change only then.
     */
    boolean readsValidatable() {
        return isolation == Isolation.SERIALIZABLE || !scansDropped && buffer.size() <= NOTED_ENTRIES;
    }

    private Entry entry(RecordKey key) {
        checkActive();
        Entry e = buffer.get(key);
        return e != null ? e : fetch(List.of(key)).get(0);
    }

    /** {@code e} read again from the store, replacing its buffered copy. */
    private Entry refreshed(Entry e) {
        Versioned stored = guard(() -> TellException.join(manager.store().getAsync(e.key)));
        Entry fresh = new Entry(e.key, stored);
        fresh.readWhole = e.readWhole; // what was read of the row still counts
        fresh.readParts = e.readParts;
        buffer.put(e.key, fresh);
        return fresh;
    }

    private void checkWritable(RecordKey key) {
        if (start.readOnly()) {
            throw TellException.of(ErrorCode.TX_STATE, "read-only transaction cannot write " + key);
        }
    }

    /**
     * The entry of a record about to be written: TX_CONFLICT (rolled back) when its newest
     * version is one this snapshot does not see, unless the write {@code mayMerge}, which decides
     * once it has its row ({@link #update(String, byte[], byte[], RowMerge)}).
     */
    private Entry entryForWrite(RecordKey key, boolean mayMerge) {
        checkWritable(key);
        Entry e = entry(key);
        if (e.buffered && !e.written) {
            // A copy from the node's buffer may be older than the store's record: a newer version
            // there is a conflict found now, not after the commit's log write; and a version in
            // the copy may have been reverted since, which only the store's record shows. The
            // write then costs the read the buffer saved, no more than without a buffer.
            e = refreshed(e);
        }
        if (newerThanSnapshot(e) && !mayMerge) {
            throw conflictOn(e);
        }
        return e;
    }

    /**
     * Whether {@code mine}'s pending update can still be merged onto {@code now}'s newer versions
     * ({@link ColumnMerge}); whether they commit is the commit's to learn.
     */
    private boolean mergeable(Entry mine, MvccRecord now) {
        ColumnMerge.Onto onto = mine != null && mine.written ? ColumnMerge.onto(mine, start, now, null) : null;
        return onto != null && (!onto.reapplied() || readsValidatable());
    }

    /** Rolls back and returns the write-write conflict on {@code e}, whose newest version this snapshot does not see. */
    private TellException conflictOn(Entry e) {
        rollback();
        manager.hotRecords().conflicted(e.key);
        manager.awaitEnded(e.record.newest().tid());
        return TellException.of(ErrorCode.TX_CONFLICT, "write-write conflict on " + e.key + ": version "
                + e.record.newest().tid() + " is newer than snapshot of tid " + start.tid());
    }

    /** True when the record's newest version is neither ours nor visible to our snapshot. */
    private boolean newerThanSnapshot(Entry e) {
        RowVersion newest = e.record.newest();
        return newest != null && !start.sees(newest.tid());
    }

    /** Buffers {@code row} as {@code e}'s new row; {@code merge} (null: none) holds only while every write of {@code e} gives one. */
    private void stage(Entry e, byte[] row, RowMerge merge) {
        if (row == null) {
            throw new IllegalArgumentException("row is null (use delete)");
        }
        remember(e);
        e.merge = merge == null ? null : !e.written ? merge : e.merge == null ? null : e.merge.then(merge);
        markWritten(e);
        e.newRow = row.clone();
    }

    private void remember(Entry e) {
        if (openSavepoints > 0) {
            undo.add(new Undo(e, e.written, e.newRow, e.reindexed, e.merge));
        }
    }

    /** Opens a savepoint here: the writes from now on can be undone with {@link #rollbackTo}. */
    public Savepoint savepoint() {
        checkActive();
        openSavepoints++;
        return new Savepoint(this, undo.size());
    }

    /**
     * Undoes every write since {@code savepoint} was taken (later savepoints are undone with
     * them); the savepoint stays open. Reads stay as they were: rows read since are still
     * what this snapshot sees, and SERIALIZABLE still validates them.
     */
    public void rollbackTo(Savepoint savepoint) {
        checkActive();
        checkOwn(savepoint);
        for (int i = undo.size() - 1; i >= savepoint.mark(); i--) {
            Undo u = undo.remove(i);
            Entry e = u.entry();
            if (e.written && !u.written()) {
                Entry last = written.remove(written.size() - 1); // entries first written since are undone last-first
                if (last != e) {
                    throw new IllegalStateException("undo out of order at " + e.key);
                }
            }
            e.written = u.written();
            e.newRow = u.newRow();
            e.reindexed = u.reindexed();
            e.merge = u.merge();
        }
    }

    /** Closes {@code savepoint} (its writes stay); with none open any more, writes stop remembering. */
    public void release(Savepoint savepoint) {
        checkOwn(savepoint);
        if (openSavepoints > 0 && --openSavepoints == 0) {
            undo.clear();
        }
    }

    private void checkOwn(Savepoint savepoint) {
        if (savepoint.owner() != this) {
            throw new IllegalArgumentException("a savepoint of another transaction");
        }
    }

    private void markWritten(Entry e) {
        if (!e.written) {
            e.written = true;
            written.add(e);
            watched.consider(e, manager.hotRecords());
        }
    }

    private byte[] visibleRow(Entry e) {
        if (e.written) {
            return e.newRow == null ? null : e.newRow.clone();
        }
        RowVersion v = e.record.visibleTo(start.snapshot(), start.tid());
        return v == null || v.deleted() ? null : v.row().clone();
    }

    private void checkActive() {
        if (state != State.ACTIVE) {
            throw TellException.of(ErrorCode.TX_STATE, "transaction " + start.tid() + " is " + state);
        }
    }

    /** Runs a store call; a failure rolls this transaction back before it propagates. */
    private <T> T guard(java.util.function.Supplier<T> call) {
        try {
            T result = call.get();
            // A node that lost its lease no longer holds lav back: what it read may be collected.
            checkLease();
            return result;
        } catch (RuntimeException | Error e) {
            rollback();
            throw e;
        }
    }
}
