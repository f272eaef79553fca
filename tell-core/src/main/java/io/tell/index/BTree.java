package io.tell.index;

import io.tell.index.internal.BLinkTree;
import io.tell.store.RecordStore;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A client of one distributed B+tree index living entirely in a {@link RecordStore}: a
 * latch-free B-link tree over a mapping from logical node ids to node records, changed only by
 * conditional writes (see {@code docs/btree.md}). Any number of clients, on any number of
 * processing nodes, may work on one tree at once; none ever waits for another, and a client
 * that stops at any point leaves a valid tree.
 *
 * <p>One client object is meant per processing node and index: it is thread-safe, and it
 * caches inner nodes, so that a lookup usually costs one store round trip.
 *
 * <p>Entries are version-unaware (key, rid) pairs; the tree neither knows nor checks rows.
 * Operations are atomic one by one and linearizable per leaf; a scan is not a snapshot.
 * Failures of the store come out as {@link io.tell.error.TellException}; after one, the
 * operation may or may not have taken effect.
 */
public interface BTree {

    /** Opens the tree {@code config.name()} in {@code store}, creating it if it does not exist. */
    static BTree open(RecordStore store, BTreeConfig config) {
        return BLinkTree.open(store, config);
    }

    BTreeConfig config();

    /** Inner-node lookups of this tree client answered by its cache, and those that went to the store (for metrics). */
    long[] cacheHitsAndMisses();

    /**
     * Adds the entry {@code (key, rid)}. A unique index refuses a second rid for a key with
     * {@link InsertResult.DuplicateKey}; either kind reports an existing identical entry as
     * {@link InsertResult.AlreadyPresent}.
     */
    InsertResult insert(byte[] key, long rid);

    /** One entry of {@link #insertAll}: {@code (key, rid)} for {@code tree}. */
    record Insertion(BTree tree, byte[] key, long rid) {
    }

    /**
     * Inserts many entries, into any trees, as a batch: with warm caches three store round trips
     * in all (the leaves, their new records, their conditional swings) instead of three per
     * entry. Each result, in order, is what {@link #insert} would have returned; each insert is
     * atomic on its own, the batch as a whole is not.
     */
    static List<InsertResult> insertAll(List<Insertion> insertions) {
        return BLinkTree.insertAll(treesOf(insertions), entriesOf(insertions));
    }

    /**
     * {@link #insertAll}, with the first round's writes sent by the caller in a batch of its
     * own, after its writes, so that each entry is added only if those all succeed (a commit's
     * log write and checks). The leaves are read here (one round trip) unless this client wrote
     * them last; null when the trees live in more than one store.
     */
    static PreparedInsert prepareAll(List<Insertion> insertions) {
        return BLinkTree.prepareInsertAll(treesOf(insertions), entriesOf(insertions));
    }

    /** An {@link #insertAll} split around the batch that carries its first writes. */
    interface PreparedInsert {
        /**
         * The first writes, to follow the caller's in one batch: new node records, then each
         * leaf's conditional write, chained ({@link WriteOp#asChained}).
         */
        List<WriteOp> writes();

        /**
         * Takes the answers to {@link #writes}, in order: each entry's result so far, null for an
         * entry not placed (its leaf's write lost, or a write of the caller's before it failed).
         */
        List<InsertResult> settle(List<WriteResult> answers);

        /** After {@link #settle}: places the entries left (further round trips); every entry's result. */
        List<InsertResult> finish();
    }

    private static List<BLinkTree> treesOf(List<Insertion> insertions) {
        List<BLinkTree> trees = new ArrayList<>(insertions.size());
        for (Insertion i : insertions) {
            if (!(i.tree() instanceof BLinkTree t)) {
                throw new IllegalArgumentException("not a tree of BTree.open: " + i.tree());
            }
            trees.add(t);
        }
        return trees;
    }

    private static List<IndexEntry> entriesOf(List<Insertion> insertions) {
        List<IndexEntry> entries = new ArrayList<>(insertions.size());
        for (Insertion i : insertions) {
            entries.add(new IndexEntry(i.key(), i.rid()));
        }
        return entries;
    }

    /** Removes the entry {@code (key, rid)}; false when it was not there. */
    boolean delete(byte[] key, long rid);

    /** The rids stored under {@code key}, ascending (at most one for a unique index). */
    List<Long> lookup(byte[] key);

    /**
     * Up to {@code limit} entries with keys in {@code range}, in ascending (key, rid) order, or
     * descending when {@code descending}.
     */
    List<IndexEntry> scan(ScanRange range, boolean descending, int limit);

    /**
     * A page of a forward scan: up to {@code limit} entries of {@code range} that come after
     * {@code after} in (key, rid) order (null: from the range's start), ascending, but ending at
     * the end of a leaf once it holds at least {@code enough} (1 &le; enough &le; limit), so that
     * a reader wanting a few entries does not read the next leaves for more. Fewer than
     * {@code enough} entries means the range holds no more.
     */
    List<IndexEntry> scanPage(ScanRange range, IndexEntry after, int enough, int limit);

    /**
     * Up to {@code limit} entries that come after {@code after} in (key, rid) order (null: from
     * the first), ascending: how a walk over a whole tree goes on from where its last page
     * ended, also through entries that share one key.
     */
    List<IndexEntry> scanAfter(IndexEntry after, int limit);

    /**
     * The entries of each range, ascending, as {@link #scan} with no limit gives them: ranges
     * that each lie in one leaf (point lookups, say) are answered by reading all their leaves
     * in one batch, one round trip with warm caches; any other range is scanned on its own.
     */
    List<List<IndexEntry>> scanBatch(List<ScanRange> ranges);

    /**
     * At most {@code parts - 1} keys, ascending and distinct, that cut the tree's key space into
     * about {@code parts} pieces of similar size: the separators of its upper inner nodes (the
     * root's, and its children's when the root has too few), read through the node cache.
     * Empty for a tree of one leaf. Hints only: a scan of the ranges between them finds exactly
     * what one scan of the whole would, whatever splits happen meanwhile.
     */
    List<byte[]> splitKeys(int parts);

    /**
     * About how many entries the tree holds, for a planner: level by level from the root, the
     * children of (up to 64 of) the nodes of a level counted, and at the bottom the mean size of
     * eight leaves spread over the whole tree. Inner nodes come from the node cache where they
     * are in it; the root pointer costs a store round trip, the leaves one batch (a round trip or
     * two), an inner level not cached another. Within a small factor of the truth also for trees
     * filled unevenly (a queue emptied at its front); entries of removed rows not yet swept count.
     */
    long estimateEntries();

    /** Deletes now the superseded node records this client queued (they otherwise ride along with its next write). */
    void flush();
}
