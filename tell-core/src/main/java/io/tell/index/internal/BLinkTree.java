package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import io.tell.index.IndexEntry;
import io.tell.index.InsertResult;
import io.tell.index.ScanRange;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import java.util.ArrayList;
import java.util.List;

/**
 * The tree operations over {@link Navigator} (searching) and {@link Splitter} (growing). An
 * entry operation searches the leaf for its target, then changes it with one conditional write
 * on the version it read; when that write conflicts it searches again, which the cache makes
 * cheap. Writers also post separators their search found missing.
 *
 * <p>Unique trees route every rid of a key to the leaf holding {@code (key, Long.MIN_VALUE)}:
 * their separators always carry {@code Long.MIN_VALUE} (see {@link BTreeNode#split}), so the
 * uniqueness check and the insert happen in the same leaf, under the same conditional write.
 *
 * <p>Deletion removes the entry from its leaf; a leaf it empties leaves the tree
 * ({@link LeafRemover}) unless it is its parent's first child. Inner nodes never merge, and low
 * fences never change.
 */
public final class BLinkTree implements BTree {
    private static final int MAX_ATTEMPTS = 10_000;
    private static final IndexEntry FIRST = new IndexEntry(new byte[0], Long.MIN_VALUE);

    private final BTreeConfig config;
    private final Navigator nav;
    private final Splitter splitter;
    private final LeafRemover remover;
    private final WrittenLeaves writtenLeaves = new WrittenLeaves();

    private BLinkTree(BTreeConfig config, Navigator nav, SplitHook hook) {
        this.config = config;
        this.nav = nav;
        this.splitter = new Splitter(nav, config.nodeCapacity(), hook);
        this.remover = new LeafRemover(nav, hook);
        nav.setRemover(remover);
    }

    public static BLinkTree open(RecordStore store, BTreeConfig config) {
        return open(store, config, SplitHook.NONE);
    }

    /** Opens (or creates) the tree; {@code hook} sees every conditional write of a split. */
    public static BLinkTree open(RecordStore store, BTreeConfig config, SplitHook hook) {
        NodeStore ns = new NodeStore(store, config.name(), config.inlineLeaves(), config.idBatch(),
                config.inlineLeaves() ? 0 : config.cacheEntries() * 16);
        RootRecord root = ns.readRoot();
        if (root == null) {
            NodeRef leaf = ns.create(BTreeNode.leaf(ns.newId(), null, null, 0, new IndexEntry[0]));
            if (!ns.createRoot(leaf.id(), config.unique())) {
                ns.discard(leaf); // another client created the tree first
            }
            root = ns.readRoot();
        }
        if (root.unique() != config.unique()) {
            throw TellException.of(ErrorCode.BAD_CONFIGURATION, "index " + config.name() + " exists and is "
                    + (root.unique() ? "unique" : "not unique"));
        }
        Navigator nav = new Navigator(ns, new NodeCache(config.cacheEntries()), new TreeStats(), root.rootId());
        return new BLinkTree(config, nav, hook);
    }

    @Override
    public BTreeConfig config() {
        return config;
    }

    @Override
    public InsertResult insert(byte[] key, long rid) {
        IndexEntry entry = new IndexEntry(checkKey(key).clone(), rid);
        IndexEntry target = routing(entry);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Path path = nav.descend(target, false, 0);
            BTreeNode leaf = path.node().node();
            int pos = leaf.lowerBound(target);
            if (pos < leaf.size() && leaf.entry(pos).sameKey(entry) && (config.unique() || leaf.entry(pos).equals(entry))) {
                splitter.help(path.missing());
                long existing = leaf.entry(pos).rid();
                return existing == rid ? InsertResult.ALREADY_PRESENT : new InsertResult.DuplicateKey(existing);
            }
            BTreeNode next = leaf.withEntry(pos, entry);
            boolean done;
            if (next.size() <= config.nodeCapacity()) {
                done = nav.store().replace(path.node(), next) != null;
                if (!done) {
                    nav.stats().conflicts.increment();
                }
            } else {
                done = splitter.split(path.node(), next, pos == leaf.size(), path.ancestors());
            }
            if (done) {
                splitter.help(path.missing());
                return InsertResult.INSERTED;
            }
        }
        throw contended("insert");
    }

    @Override
    public boolean delete(byte[] key, long rid) {
        IndexEntry entry = new IndexEntry(checkKey(key).clone(), rid);
        IndexEntry target = routing(entry);
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            Path path = nav.descend(target, false, 0);
            BTreeNode leaf = path.node().node();
            int pos = leaf.lowerBound(entry);
            if (pos == leaf.size() || !leaf.entry(pos).equals(entry)) {
                splitter.help(path.missing());
                return false;
            }
            NodeRef done = nav.store().replace(path.node(), leaf.withoutEntry(pos));
            if (done != null) {
                splitter.help(path.missing());
                if (done.node().size() == 0) {
                    try {
                        remover.emptied(done);
                    } catch (TellException e) {
                        // The entry is deleted; the empty leaf stays, or the next search finishes its removal.
                    }
                }
                return true;
            }
            nav.stats().conflicts.increment();
        }
        throw contended("delete");
    }

    @Override
    public List<Long> lookup(byte[] key) {
        List<IndexEntry> entries = scan(ScanRange.key(key), false, Integer.MAX_VALUE);
        List<Long> rids = new ArrayList<>(entries.size());
        for (IndexEntry e : entries) {
            rids.add(e.rid());
        }
        return rids;
    }

    @Override
    public List<IndexEntry> scan(ScanRange range, boolean descending, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        List<IndexEntry> out = new ArrayList<>();
        if (limit > 0) {
            if (descending) {
                scanBackward(range, limit, out);
            } else {
                scanForward(range, forwardStart(range), limit, limit, out, false);
            }
        }
        return out;
    }

    @Override
    public List<IndexEntry> scanPage(ScanRange range, IndexEntry after, int enough, int limit) {
        if (enough < 1 || enough > limit) {
            throw new IllegalArgumentException("a page of " + enough + " to " + limit + " entries");
        }
        List<IndexEntry> out = new ArrayList<>();
        forwardAfter(range, after, enough, limit, out, after == null);
        return out;
    }

    @Override
    public List<IndexEntry> scanAfter(IndexEntry after, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit " + limit);
        }
        List<IndexEntry> out = new ArrayList<>();
        if (limit > 0) {
            forwardAfter(ScanRange.ALL, after, limit, limit, out, false);
        }
        return out;
    }

    /** A forward scan of the entries of {@code range} that come after {@code after} (null: from the range's start). */
    private void forwardAfter(ScanRange range, IndexEntry after, int enough, int limit, List<IndexEntry> out,
                              boolean withNeighbour) {
        if (after == null) {
            scanForward(range, forwardStart(range), enough, limit, out, withNeighbour);
        } else if (after.rid() == Long.MAX_VALUE) { // nothing more under its key
            ScanRange rest = new ScanRange(ScanRange.exclusive(after.key()), range.upper());
            scanForward(rest, forwardStart(rest), enough, limit, out, withNeighbour);
        } else {
            ScanRange rest = new ScanRange(ScanRange.inclusive(after.key()), range.upper());
            scanForward(rest, new IndexEntry(after.key(), after.rid() + 1), enough, limit, out, withNeighbour);
        }
    }

    /** Most leaves a forward scan reads in one batch. */
    static final int MAX_LEAVES_AHEAD = 64;

    /**
     * From the leaf holding the lower end along the right links. Past the first leaf it reads
     * ahead: the next leaves as the cached parents list them, in batches that double (2, 4, ...
     * up to {@value #MAX_LEAVES_AHEAD}), so a long scan costs a few round trips, not one per
     * leaf. Leaves read ahead are decoded only when the scan gets to them, and one is used only
     * if it is the right sibling the leaf before it names; after a split the scan follows the
     * link instead. A removed leaf on the way holds nothing; the scan goes on along its link.
     * It ends at a leaf's end once it has {@code enough} entries. {@code withNeighbour} reads
     * the first leaf's right neighbour along with it, as the cached parent names it: a range
     * that starts after the last entry of its first leaf (a queue's front, whose entries were
     * taken) then costs one round trip, not two.
     */
    private void scanForward(ScanRange range, IndexEntry start, int enough, int limit, List<IndexEntry> out,
                             boolean withNeighbour) {
        List<Long> aheadIds = List.of();
        List<Versioned> ahead = List.of(); // their mapping records, decoded when the scan gets there
        int at = 0;
        BTreeNode leaf = null;
        if (withNeighbour) {
            long first = nav.route(start);
            List<Long> ids = first == 0 ? List.of() : nav.leavesFrom(start, first, 2);
            if (ids.size() == 2) {
                List<Versioned> read = nav.store().readMappings(ids);
                NodeRef n = nav.store().fromMapping(first, read.get(0));
                if (n != null && n.node().isLeaf() && !n.node().isRemoved() && n.node().covers(start, false)) {
                    leaf = n.node();
                    aheadIds = ids;
                    ahead = read;
                    at = 1;
                }
            }
        }
        if (leaf == null) {
            leaf = nav.descend(start, false, 0).node().node();
        }
        int i = leaf.lowerBound(start);
        int batch = 2;
        while (true) {
            for (; i < leaf.size(); i++) {
                IndexEntry e = leaf.entry(i);
                if (!range.aboveLower(e.key()) || e.compareTo(start) < 0) {
                    continue;
                }
                if (!range.belowUpper(e.key())) {
                    return;
                }
                out.add(e);
                if (out.size() == limit) {
                    return;
                }
            }
            if (leaf.high() == null || !range.belowUpper(leaf.high().key()) || out.size() >= enough) {
                return;
            }
            long next = leaf.rightSibling();
            if (at == aheadIds.size()) {
                aheadIds = nav.leavesFrom(leaf.high(), next, batch);
                ahead = nav.store().readMappings(aheadIds);
                at = 0;
                batch = Math.min(batch * 2, MAX_LEAVES_AHEAD);
            }
            NodeRef n = null;
            if (aheadIds.get(at) == next) {
                n = nav.store().fromMapping(next, ahead.get(at));
                if (n == null && ahead.get(at) != null) {
                    // Out-of-line leaves not decoded here yet: their physical records in one
                    // batch (remembered as hints, so the ones after this decode from them).
                    n = nav.store().resolve(aheadIds.subList(at, aheadIds.size()), ahead.subList(at, ahead.size())).get(0);
                }
                at++;
            }
            if (n == null || !n.node().isLeaf()) {
                at = aheadIds.size(); // after a split the read-ahead is off the chain: follow the link
                n = nav.fetch(next);
            }
            leaf = n.node();
            i = 0;
        }
    }

    /** The first entry a forward scan of {@code range} may return: its search target. */
    static IndexEntry forwardStart(ScanRange range) {
        ScanRange.Bound lower = range.lower();
        return lower == null ? FIRST : new IndexEntry(lower.key(), lower.inclusive() ? Long.MIN_VALUE : Long.MAX_VALUE);
    }

    /**
     * From the leaf holding the upper end leftwards: there are no left links, so each step
     * searches for the leaf just below the current one's low fence, through the cache (one
     * round trip per leaf when the cache is warm).
     */
    private void scanBackward(ScanRange range, int limit, List<IndexEntry> out) {
        ScanRange.Bound upper = range.upper();
        IndexEntry start = upper == null ? null
                : new IndexEntry(upper.key(), upper.inclusive() ? Long.MAX_VALUE : Long.MIN_VALUE);
        boolean before = upper == null || !upper.inclusive();
        BTreeNode leaf = nav.descend(start, before, 0).node().node();
        IndexEntry ceiling = null; // entries at or above it were returned from the leaf to the right
        while (true) {
            for (int i = leaf.size() - 1; i >= 0; i--) {
                IndexEntry e = leaf.entry(i);
                if (ceiling != null && e.compareTo(ceiling) >= 0 || !range.belowUpper(e.key())) {
                    continue;
                }
                if (!range.aboveLower(e.key())) {
                    return;
                }
                out.add(e);
                if (out.size() == limit) {
                    return;
                }
            }
            if (leaf.low() == null || !range.aboveLower(leaf.low().key())) {
                return;
            }
            ceiling = leaf.low();
            leaf = nav.descend(ceiling, true, 0).node().node();
        }
    }

    @Override
    public void flush() {
        nav.store().flushGarbage();
    }

    public TreeStats.Snapshot stats() {
        return nav.stats().snapshot();
    }

    @Override
    public long[] cacheHitsAndMisses() {
        return new long[] {nav.cache().hits(), nav.cache().misses()};
    }

    /** Inner nodes cached now (for tests and metrics). */
    public int cachedNodes() {
        return nav.cache().size();
    }

    /** Forgets every cached inner node and the root, as a freshly started processing node would. */
    public void clearCache() {
        nav.cache().clear();
        nav.setRoot(0);
    }

    Splitter splitter() {
        return splitter;
    }

    /** The leaves this client's batch inserts wrote last ({@link BatchInsert}). */
    WrittenLeaves writtenLeaves() {
        return writtenLeaves;
    }

    NodeStore nodeStore() {
        return nav.store();
    }

    Navigator navigator() {
        return nav;
    }

    /** Inserts {@code entries.get(i)} into {@code trees.get(i)}, batched across leaves and trees (see {@link BatchInsert}). */
    public static List<InsertResult> insertAll(List<BLinkTree> trees, List<IndexEntry> entries) {
        return BatchInsert.run(trees, entries);
    }

    /** {@link #insertAll} with its first round's writes sent by the caller (see {@link BTree#prepareAll}). */
    public static BTree.PreparedInsert prepareInsertAll(List<BLinkTree> trees, List<IndexEntry> entries) {
        return BatchInsert.prepare(trees, entries);
    }

    @Override
    public List<List<IndexEntry>> scanBatch(List<ScanRange> ranges) {
        List<List<IndexEntry>> out = BatchScan.run(this, ranges);
        for (int i = 0; i < out.size(); i++) {
            if (out.get(i) == null) {
                out.set(i, scan(ranges.get(i), false, Integer.MAX_VALUE));
            }
        }
        return out;
    }

    /** Leaves read, spread over the whole tree, when estimating its entries. */
    private static final int SAMPLED_LEAVES = 8;
    /** Inner nodes of one level read, at most, when estimating a tree's entries. */
    private static final int SAMPLED_INNER = 64;

    @Override
    public long estimateEntries() {
        NodeRef root = cachedOrFetched(nav.readRoot().rootId());
        if (root.node().isLeaf()) {
            return root.node().isRemoved() ? 0 : root.node().size();
        }
        List<BTreeNode> level = List.of(root.node());
        double scale = 1; // how many nodes of its level each node in `level` stands for
        while (true) {
            List<Long> children = new ArrayList<>();
            for (BTreeNode n : level) {
                for (int i = 0; i < n.size(); i++) {
                    children.add(n.child(i));
                }
            }
            boolean leaves = level.get(0).level() == 1;
            List<Long> sample = spread(children, leaves ? SAMPLED_LEAVES : SAMPLED_INNER);
            if (sample.isEmpty()) {
                return 0;
            }
            scale *= (double) children.size() / sample.size();
            List<BTreeNode> read = read(sample, !leaves);
            if (read.isEmpty()) {
                return Math.round(scale * sample.size() * config.nodeCapacity() / 2.0); // all moved meanwhile: a guess
            }
            if (leaves) {
                long entries = 0;
                for (BTreeNode leaf : read) {
                    entries += leaf.size();
                }
                return Math.round(scale * sample.size() * entries / read.size());
            }
            scale *= (double) sample.size() / read.size();
            level = read;
        }
    }

    /** At most {@code n} of {@code ids}, spread evenly. */
    private static List<Long> spread(List<Long> ids, int n) {
        if (ids.size() <= n) {
            return ids;
        }
        List<Long> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(ids.get((int) ((long) i * ids.size() / n)));
        }
        return out;
    }

    /** Nodes {@code ids} that are still there: from the cache where {@code cached} and they are in it, the others in one batch. */
    private List<BTreeNode> read(List<Long> ids, boolean cached) {
        List<BTreeNode> out = new ArrayList<>(ids.size());
        List<Long> missing = new ArrayList<>();
        for (long id : ids) {
            NodeRef ref = cached ? nav.cache().get(id) : null;
            if (ref != null) {
                out.add(ref.node());
            } else {
                missing.add(id);
            }
        }
        for (NodeRef ref : missing.isEmpty() ? List.<NodeRef>of() : nodeStore().readAll(missing)) {
            if (ref != null) {
                out.add(ref.node());
            }
        }
        out.removeIf(BTreeNode::isRemoved);
        return out;
    }

    private NodeRef cachedOrFetched(long id) {
        NodeRef cached = nav.cache().get(id);
        return cached != null ? cached : nav.fetch(id);
    }

    @Override
    public List<byte[]> splitKeys(int parts) {
        if (parts < 2) {
            return List.of();
        }
        List<NodeRef> level = List.of(nav.fetch(nav.readRoot().rootId()));
        List<byte[]> separators = separators(level);
        // Down one level while the level above has too few separators and the next is inner.
        while (separators.size() < parts - 1 && level.get(0).node().level() > 1) {
            List<NodeRef> below = new ArrayList<>();
            for (NodeRef inner : level) {
                for (int i = 0; i < inner.node().size(); i++) {
                    below.add(cachedOrFetched(inner.node().child(i)));
                }
            }
            level = below;
            separators = separators(level);
        }
        List<byte[]> out = new ArrayList<>();
        for (int p = 1; p < parts && !separators.isEmpty(); p++) {
            byte[] key = separators.get((int) ((long) p * separators.size() / parts));
            if (out.isEmpty() || java.util.Arrays.compareUnsigned(out.get(out.size() - 1), key) < 0) {
                out.add(key);
            }
        }
        return out;
    }

    /** The keys at which the children of the inner nodes {@code level} (left to right) begin, but for each node's first. */
    private static List<byte[]> separators(List<NodeRef> level) {
        List<byte[]> keys = new ArrayList<>();
        for (NodeRef ref : level) {
            BTreeNode node = ref.node();
            if (node.isLeaf()) {
                continue;
            }
            for (int i = 1; i < node.size(); i++) {
                keys.add(node.childLow(i).key());
            }
        }
        return keys;
    }

    /** The entry searched for when {@code entry} is inserted: a unique tree keeps every rid of a key in one leaf. */
    IndexEntry routing(IndexEntry entry) {
        return config.unique() ? new IndexEntry(entry.key(), Long.MIN_VALUE) : entry;
    }

    static byte[] checkKey(byte[] key) {
        if (key == null || key.length > BTreeConfig.MAX_KEY_BYTES) {
            throw new IllegalArgumentException("index key must be non-null and at most " + BTreeConfig.MAX_KEY_BYTES
                    + " bytes" + (key == null ? "" : ", not " + key.length));
        }
        return key;
    }

    private TellException contended(String what) {
        return TellException.of(ErrorCode.TX_CONFLICT, "b-tree " + what + " in " + config.name()
                + " kept conflicting for " + MAX_ATTEMPTS + " attempts");
    }
}
