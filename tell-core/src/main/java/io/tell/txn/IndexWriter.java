package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.InsertResult;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Index maintenance at commit: new entries are added before the record batch (all of them
 * together, see {@link BTree#insertAll}; their writes ride the log write, see
 * {@link #entryWrites}), unique keys
 * are claimed after it (a claim's holder row must already be written). On failure the entries
 * added are taken out again (claims need no undo: a claim whose row does not hold its key is
 * stale and is taken over).
 */
final class IndexWriter {
    /**
     * One new entry: {@code key -> rid} in {@code index}. {@code freshRow}: the row has no
     * version in the store yet (an insert of a new rid), so no other transaction can rely on
     * this entry.
     */
    private record Change(TableIndex index, byte[] key, long rid, boolean freshRow) {
    }

    private final TransactionManager manager;
    private final TxStart start;
    private final List<Change> added = new ArrayList<>();
    private final List<Change> changes = new ArrayList<>();
    private final List<GarbageLog.Item> garbage = new ArrayList<>();
    /**
     * The entries' insert whose first writes ride in the log batch ({@link #entryWrites}); null
     * when there are no entries, or their trees live in several stores.
     */
    private BTree.PreparedInsert prepared;
    /** The log batch's answers to those writes, not yet taken in. */
    private List<WriteResult> entryAnswers;

    /** Works out, in one pass over {@code writes}, the entries to add and what the commit leaves as garbage. */
    IndexWriter(TransactionManager manager, TxStart start, List<Transaction.Entry> writes) {
        this.manager = manager;
        this.start = start;
        for (Transaction.Entry e : writes) {
            plan(e);
        }
    }

    /** What the commit leaves for the sweeper once it commits ({@link GarbageLog}). */
    List<GarbageLog.Item> garbage() {
        return garbage;
    }

    /**
     * Writes that add the new entries, to ride at the end of the commit's log batch: chained, so
     * that the entries are added only if the log write and its checks succeed
     * ({@link BTree#prepareAll}: leaves this node wrote last are not read, the others are read
     * here, before the log write). Their answers go to {@link #entriesAnswered}; entries they do
     * not place, {@link #addEntries} adds. Called once, just before the batch is sent.
     */
    List<WriteOp> entryWrites() {
        prepared = changes.isEmpty() ? null : BTree.prepareAll(insertions());
        return prepared == null ? List.of() : prepared.writes();
    }

    /**
     * The answers to {@link #entryWrites}, as soon as they arrive: the entries they added count
     * as added from here on (for {@link #undo}); the others are added by {@link #addEntries}.
     */
    void entriesAnswered(List<WriteResult> answers) {
        entryAnswers = answers;
    }

    /**
     * Adds the new entries of {@code writes} (those the log batch did not), before the records
     * are applied: an inserted row is then in the index no later than in its table, which is
     * what lets a SERIALIZABLE transaction's re-scan see every insert that could precede it
     * (readers skip entries whose rows they cannot see, and never remove entries of rows that
     * are merely absent).
     */
    void addEntries() {
        settle();
        record(prepared != null ? prepared.finish() : BTree.insertAll(insertions()));
        prepared = null;
    }

    /** Takes in the log batch's answers to the entry writes, once. */
    private void settle() {
        if (entryAnswers != null) {
            List<WriteResult> answers = entryAnswers;
            entryAnswers = null;
            record(prepared.settle(answers));
        }
    }

    private List<BTree.Insertion> insertions() {
        List<BTree.Insertion> insertions = new ArrayList<>(changes.size());
        for (Change c : changes) {
            insertions.add(new BTree.Insertion(c.index().tree(), c.key(), c.rid()));
        }
        return insertions;
    }

    /** The changes whose entries {@code results} (one per change, null where undecided) say were inserted. */
    private void record(List<InsertResult> results) {
        added.clear();
        for (int i = 0; i < changes.size(); i++) {
            if (results.get(i) instanceof InsertResult.Inserted) {
                added.add(changes.get(i));
            }
        }
    }

    /** True when the commit has unique keys to claim (a batch of its own after the records). */
    boolean claimsKeys() {
        return changes.stream().anyMatch(c -> c.index().unique());
    }

    /**
     * After the records are applied: claims the unique keys; throws DUPLICATE_KEY when one is
     * taken. {@code alsoWrite} (writes that must follow the records; a chained one after the
     * claims, too) rides at the end of the first claims batch, or goes alone when there is
     * nothing to claim; {@code answered} gets that batch's answers as soon as they arrive.
     */
    void claimUniqueKeys(List<WriteOp> alsoWrite, Consumer<List<WriteResult>> answered) {
        claim(changes.stream().filter(c -> c.index().unique()).toList(), alsoWrite, answered);
    }

    /**
     * Takes out the entries this writer added for new rows (after a failure). Entries for rows
     * that already existed stay, stale, for readers to skip: a concurrent writer giving the
     * same row the same key found our entry present, added none, and may have committed
     * relying on it — taking it out would lose the row from the index.
     */
    void undo() {
        settle();
        for (Change c : added) {
            if (!c.freshRow()) {
                continue;
            }
            try {
                c.index().tree().delete(c.key(), c.rid());
            } catch (RuntimeException e) {
                // Left behind, the entry is stale: readers check rows and remove it lazily.
            }
        }
        added.clear();
    }

    /**
     * One write: the entries its new row needs that the row did not have, and its garbage — a
     * deleted row, with every key of every version its record still holds, or the old key an
     * update changed (see {@link GarbageLog}).
     */
    private void plan(Transaction.Entry e) {
        RowVersion before = e.record.visibleTo(start.snapshot(), start.tid());
        byte[] oldRow = before == null || before.deleted() ? null : before.row();
        if (e.newRow == null && oldRow != null) {
            garbage.add(GarbageLog.Item.row(e.key.domain(), e.key.key()));
        }
        List<TableIndex> indexes = manager.indexesOf(e.key.domain());
        if (indexes.isEmpty() || e.newRow == null && oldRow == null) {
            return;
        }
        long rid = TableIndex.ridOf(e.key.key());
        for (TableIndex index : indexes) {
            if (e.newRow == null) {
                lostKeys(e, index);
                continue;
            }
            byte[] key = index.keyOf().apply(e.newRow);
            byte[] oldKey = oldRow == null || index.equals(e.reindexed) ? null : index.keyOf().apply(oldRow);
            if (key != null && !Arrays.equals(key, oldKey)) {
                changes.add(new Change(index, key, rid, e.record.newest() == null));
            }
            if (oldKey != null && !Arrays.equals(key, oldKey)) {
                garbage.add(new GarbageLog.Item(e.key.domain(), e.key.key(), index.name(), index.unique(), oldKey));
            }
        }
    }

    /** A deleted row's keys in {@code index}: of every version its record still holds, each once. */
    private void lostKeys(Transaction.Entry e, TableIndex index) {
        List<byte[]> lost = new ArrayList<>();
        for (RowVersion v : e.record.versions()) {
            byte[] key = v.deleted() ? null : index.keyOf().apply(v.row());
            if (key != null && lost.stream().noneMatch(k -> Arrays.equals(k, key))) {
                lost.add(key);
                garbage.add(new GarbageLog.Item(e.key.domain(), e.key.key(), index.name(), index.unique(), key));
            }
        }
    }

    /**
     * Claims every unique key with one conditional write each, batched. A claim held by
     * another rid is taken over only if that row no longer holds the key; otherwise the key
     * is taken: a uniqueness violation. Concurrent claimers of one key: exactly one write wins.
     */
    private void claim(List<Change> unique, List<WriteOp> alsoWrite, Consumer<List<WriteResult>> answered) {
        RecordStore store = manager.store();
        if (unique.isEmpty()) {
            if (!alsoWrite.isEmpty()) {
                answered.accept(TellException.join(store.writeAllAsync(alsoWrite)));
            }
            return;
        }
        List<RecordKey> claimKeys = new ArrayList<>();
        List<WriteOp> inserts = new ArrayList<>();
        for (Change c : unique) {
            RecordKey key = new RecordKey(c.index().claimDomain(), c.key());
            claimKeys.add(key);
            inserts.add(new WriteOp(key, TableIndex.ridKey(c.rid()), Expect.ABSENT));
        }
        // A key nobody claimed yet (the common case: a new row, a new key) is claimed with one
        // insert-if-absent, no read; only keys that already have a claim are looked at.
        List<WriteOp> batch = inserts;
        if (!alsoWrite.isEmpty()) {
            batch = new ArrayList<>(inserts);
            batch.addAll(alsoWrite);
        }
        List<WriteResult> inserted = TellException.join(store.writeAllAsync(batch));
        answered.accept(inserted);
        List<Change> taken = new ArrayList<>();
        List<RecordKey> takenKeys = new ArrayList<>();
        for (int i = 0; i < unique.size(); i++) {
            if (!inserted.get(i).written()) {
                taken.add(unique.get(i));
                takenKeys.add(claimKeys.get(i));
            }
        }
        if (!taken.isEmpty()) {
            claimHeld(taken, takenKeys);
        }
    }

    /** Claims keys that have a claim already: taken over when its holder row no longer holds the key. */
    private void claimHeld(List<Change> unique, List<RecordKey> claimKeys) {
        RecordStore store = manager.store();
        List<Versioned> claims = TellException.join(store.getAllAsync(claimKeys));
        List<RecordKey> holders = new ArrayList<>();
        for (int i = 0; i < unique.size(); i++) {
            Versioned claim = claims.get(i);
            long holder = claim == null ? unique.get(i).rid() : ByteBuffer.wrap(claim.value()).getLong();
            holders.add(new RecordKey(unique.get(i).index().table(), TableIndex.ridKey(holder)));
        }
        List<Versioned> holderRows = TellException.join(store.getAllAsync(holders));
        List<WriteOp> ops = new ArrayList<>();
        for (int i = 0; i < unique.size(); i++) {
            Change c = unique.get(i);
            Versioned claim = claims.get(i);
            byte[] rid = TableIndex.ridKey(c.rid());
            if (claim == null) {
                ops.add(new WriteOp(claimKeys.get(i), rid, Expect.ABSENT)); // gone since (the sweeper)
            } else {
                if (!Arrays.equals(claim.value(), rid)) {
                    switch (holding(holderRows.get(i), c.index(), c.key())) {
                        case COMMITTED -> throw violation(c);
                        case UNDECIDED -> throw undecided(c);
                        case FREE -> { }
                    }
                }
                // Taken over from a holder that no longer has the key, or our own claim from an
                // earlier time the row had this key: either way rewritten conditionally, so a
                // concurrent claimer that read the same claim loses (exactly one write wins).
                ops.add(new WriteOp(claimKeys.get(i), rid, Expect.version(claim.version())));
            }
        }
        List<WriteResult> results = TellException.join(store.writeAllAsync(ops));
        for (int i = 0; i < results.size(); i++) {
            if (!results.get(i).written()) {
                // Another claimer got in first; its transaction has not committed yet (it claims
                // before it reports), so whether the key stays taken is not decided.
                throw undecided(unique.get(i));
            }
        }
    }

    /** Whether a claim's holder row keeps its key: for good, perhaps (a writer in flight decides), or not. */
    private enum Holding { COMMITTED, UNDECIDED, FREE }

    /**
     * Whether a row holds {@code key} for this transaction. Its newest version settled (ours, or
     * committed before our snapshot): it holds the key for good (a duplicate) or not at all.
     * Otherwise the row ends up at one of the versions from its newest down to the one our
     * snapshot sees — a writer in flight may still abort and leave it at any version below its
     * own, one committed after our snapshot included — so if any of them holds the key, a
     * retry will know (undecided); if none does, the key is free.
     */
    private Holding holding(Versioned stored, TableIndex index, byte[] key) {
        if (stored == null) {
            return Holding.FREE;
        }
        MvccRecord record = MvccRecord.decode(stored.value());
        RowVersion newest = record.newest();
        if (newest == null) {
            return Holding.FREE;
        }
        if (start.sees(newest.tid())) {
            return holdsKey(newest, index, key) ? Holding.COMMITTED : Holding.FREE;
        }
        for (RowVersion v : record.versions()) {
            if (holdsKey(v, index, key)) {
                return Holding.UNDECIDED;
            }
            if (start.sees(v.tid())) {
                break;
            }
        }
        return Holding.FREE;
    }

    static boolean holdsKey(RowVersion v, TableIndex index, byte[] key) {
        return v != null && !v.deleted() && Arrays.equals(key, index.keyOf().apply(v.row()));
    }

    private TellException undecided(Change c) {
        return TellException.of(ErrorCode.TX_CONFLICT, "unique index " + c.index().name() + " key "
                + java.util.HexFormat.of().formatHex(c.key()) + " is held or being claimed by a transaction whose"
                + " outcome this one cannot see yet (transaction " + start.tid() + "); retry");
    }

    private TellException violation(Change c) {
        return new DuplicateKeyException(c.index().name(), c.key(), start.tid());
    }
}
