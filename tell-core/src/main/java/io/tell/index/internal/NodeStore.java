package io.tell.index.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTreeConfig;
import io.tell.store.Expect;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.Versioned;
import io.tell.store.WriteOp;
import io.tell.store.WriteResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * All store access of one tree client, so that round trips can be counted and reasoned about in
 * one place. Each public method costs the round trips its javadoc states.
 *
 * <p>Records of an index {@code name}:
 * <ul>
 *   <li>{@code name.map}: key = logical node id (8 bytes). Value {@code 'P'} + physical id
 *       (8 bytes), or {@code 'I'} + the encoded node for a node kept inline. A change of a node
 *       is one conditional write of this record on the version read.</li>
 *   <li>{@code name.node}: key = physical id (8 bytes), value = the encoded node. Written once
 *       with insert-if-absent, never changed; deleted once no mapping points to it.</li>
 *   <li>{@code name.meta}: record {@code root} = format, flags (bit 0 unique), root id; counter
 *       {@code ids} hands out logical and physical ids in ranges.</li>
 * </ul>
 * Superseded and orphaned records are queued as garbage and their deletes ride along with this
 * client's next write batch, so collecting them costs no round trip of its own.
 *
 * <p>A range of ids is used for at most {@link #ID_RANGE_LIFE_MILLIS} after it was drawn; then the
 * next id comes from a fresh range. So a record with an id the counter had handed out before
 * some moment is, once that life (and any delay of a write in flight) has passed, either
 * reachable or never will be: what lets the sweeper's tree audit delete unreachable records that
 * a client left when it died between writing them and swinging them in ({@code io.tell.gc}).
 */
public final class NodeStore {
    private static final byte POINTER = 'P';
    private static final byte INLINE = 'I';
    private static final byte[] ROOT_KEY = "root".getBytes(StandardCharsets.US_ASCII);
    static final byte[] IDS_KEY = "ids".getBytes(StandardCharsets.US_ASCII);
    private static final int META_FORMAT = 1;
    private static final int MAX_MISSING_PHYSICAL = 100;
    /** How long after it was drawn a range of ids may still be handed out. */
    public static final long ID_RANGE_LIFE_MILLIS = 2_000;

    private final RecordStore store;
    private final String mapDomain;
    private final String nodeDomain;
    private final String metaDomain;
    private final boolean inlineLeaves;
    private final int idBatch;
    private final AtomicReference<IdRange> ids = new AtomicReference<>(new IdRange(0, 0, 0));
    private final ConcurrentLinkedQueue<RecordKey> garbage = new ConcurrentLinkedQueue<>();
    private final LeafHints hints;

    private record IdRange(long next, long end, long drawnNanos) {
        boolean usable() {
            return next < end && System.nanoTime() - drawnNanos < ID_RANGE_LIFE_MILLIS * 1_000_000;
        }
    }

    public NodeStore(RecordStore store, String name, boolean inlineLeaves, int idBatch, int hintEntries) {
        this.store = store;
        List<String> domains = BTreeConfig.domainsOf(name);
        this.mapDomain = domains.get(0);
        this.nodeDomain = domains.get(1);
        this.metaDomain = domains.get(2);
        this.inlineLeaves = inlineLeaves;
        this.idBatch = idBatch;
        this.hints = new LeafHints(hintEntries);
    }

    public String mapDomain() {
        return mapDomain;
    }

    public String nodeDomain() {
        return nodeDomain;
    }

    public RecordStore store() {
        return store;
    }

    /**
     * A fresh id, never handed out before; one counter round trip per {@code idBatch} ids, or
     * per {@link #ID_RANGE_LIFE_MILLIS} when ids are used more slowly.
     */
    public long newId() {
        while (true) {
            IdRange r = ids.get();
            if (r.usable()) {
                if (ids.compareAndSet(r, new IdRange(r.next + 1, r.end, r.drawnNanos))) {
                    return r.next;
                }
                continue;
            }
            long drawn = System.nanoTime(); // before the draw: the range's life is never overstated
            // Node ids may be sparse, so the clock is their floor: after a store fail-over
            // that lost increments the counter still climbs past every id handed out.
            long last = store.increment(metaDomain, IDS_KEY, idBatch, RecordStore.clockFloor());
            long first = last - idBatch + 1;
            // If another thread refilled meanwhile, our range is simply dropped: ids are plentiful.
            ids.compareAndSet(r, new IdRange(first + 1, last + 1, drawn));
            return first;
        }
    }

    /** The meta record, or null when the tree does not exist. One round trip. */
    public RootRecord readRoot() {
        Versioned v = store.get(metaDomain, ROOT_KEY);
        if (v == null) {
            return null;
        }
        byte[] b = v.value();
        if (b.length != 10 || b[0] != META_FORMAT) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "bad b-tree meta record in " + metaDomain);
        }
        return new RootRecord(Bytes.getLong(b, 2), v.version(), (b[1] & 1) != 0);
    }

    /** Creates the meta record pointing at {@code rootId} unless one exists. One round trip. */
    public boolean createRoot(long rootId, boolean unique) {
        return store.write(WriteOp.insert(metaDomain, ROOT_KEY, rootValue(rootId, unique))).written();
    }

    /** Swings the root pointer, conditional on the version read. One round trip. */
    public boolean swingRoot(RootRecord current, long newRootId) {
        WriteOp op = WriteOp.put(metaDomain, ROOT_KEY, rootValue(newRootId, current.unique()),
                Expect.version(current.version()));
        return store.write(op).written();
    }

    private static byte[] rootValue(long rootId, boolean unique) {
        byte[] b = new byte[10];
        b[0] = META_FORMAT;
        b[1] = (byte) (unique ? 1 : 0);
        Bytes.putLong(b, 2, rootId);
        return b;
    }

    /**
     * The current state of node {@code id}, or null if it has no mapping record. One round trip
     * (the mapping) for an inline node or when this client already decoded the physical record
     * the mapping points to (physical records are written once); two otherwise.
     */
    public NodeRef read(long id) {
        for (int attempt = 0; attempt < MAX_MISSING_PHYSICAL; attempt++) {
            Versioned mapping = store.get(mapDomain, Bytes.ofLong(id));
            if (mapping == null) {
                return null;
            }
            NodeRef known = fromMapping(id, mapping);
            if (known != null) {
                return known;
            }
            NodeRef read = fromPhysical(id, mapping, TellException.join(store.getAsync(physicalKey(id, mapping))));
            if (read != null) {
                return read;
            }
            // The mapping moved on and its old physical record was collected between our reads.
        }
        throw TellException.of(ErrorCode.CORRUPT_DATA, "node " + id + " maps to a missing physical record");
    }

    /**
     * The current state of a node this client holds an older copy of: one round trip when its
     * mapping still points to the same physical record, two when it changed.
     */
    public NodeRef refresh(NodeRef known) {
        if (known.physicalId() == 0) {
            return read(known.id());
        }
        Versioned mapping = store.get(mapDomain, Bytes.ofLong(known.id()));
        if (mapping != null && mapping.value()[0] == POINTER && pointer(known.id(), mapping.value()) == known.physicalId()) {
            return new NodeRef(known.id(), mapping.version(), known.physicalId(), known.node());
        }
        return read(known.id());
    }

    /**
     * Stores a node no one can reach yet (a new right sibling or root): its mapping record,
     * inserted if absent, and its physical record if it has one, in one batch. One round trip.
     */
    public NodeRef create(BTreeNode node) {
        Creation c = prepareCreate(node);
        List<WriteOp> ops = new ArrayList<>(c.ops());
        drainGarbage(ops);
        return finishCreate(c, store.writeAll(ops));
    }

    /** A new node's records, written insert-if-absent (its id is fresh): the mapping last. */
    record Creation(BTreeNode node, long physicalId, List<WriteOp> ops) {
    }

    Creation prepareCreate(BTreeNode node) {
        byte[] encoded = NodeCodec.encode(node);
        if (isInline(node)) {
            return new Creation(node, 0, List.of(WriteOp.insert(mapDomain, Bytes.ofLong(node.id()), inlineValue(encoded))));
        }
        long physicalId = newId();
        return new Creation(node, physicalId, List.of(WriteOp.insert(nodeDomain, Bytes.ofLong(physicalId), encoded),
                WriteOp.insert(mapDomain, Bytes.ofLong(node.id()), pointerValue(physicalId))));
    }

    /** The created node, from the results of its ops (the first {@code ops().size()} of {@code results}). */
    NodeRef finishCreate(Creation c, List<WriteResult> results) {
        int own = c.ops().size();
        WriteResult mapped = results.get(own - 1);
        if (!mapped.written() || own == 2 && !results.get(0).written()) {
            throw TellException.of(ErrorCode.INTERNAL, "fresh node id " + c.node().id() + " already in use");
        }
        if (c.physicalId() != 0) {
            hints.put(c.node().id(), c.physicalId(), c.node());
        }
        return new NodeRef(c.node().id(), mapped.version(), c.physicalId(), c.node());
    }

    /**
     * Publishes {@code next} as the new state of {@code current.id()}: one conditional write of
     * the mapping record on {@code current.version()}, preceded for a non-inline node by the
     * insert of its new physical record in the same batch (the mapping chained to it). One
     * round trip (two on a store that cannot check a chain in one step). Returns the new
     * reference, or null when the node changed since {@code current} was read.
     */
    public NodeRef replace(NodeRef current, BTreeNode next) {
        Replacement r = prepareReplace(current, next);
        List<WriteOp> ops = new ArrayList<>();
        if (r.physical() != null) {
            ops.add(r.physical());
        }
        drainGarbage(ops);
        ops.add(r.mapping().asChained());
        List<WriteResult> results = store.writeAll(ops);
        return finishReplace(r, results.get(results.size() - 1));
    }

    /**
     * A planned {@link #replace}: the insert of the new physical record (null for an inline
     * node), which must be written before {@code mapping}, the conditional write that publishes
     * it (chained to it in one batch). Batches of many nodes issue these themselves and report
     * each outcome to {@link #finishReplace}.
     */
    record Replacement(NodeRef current, BTreeNode next, long physicalId, WriteOp physical, WriteOp mapping) {
    }

    Replacement prepareReplace(NodeRef current, BTreeNode next) {
        byte[] encoded = NodeCodec.encode(next);
        if (isInline(next)) {
            return new Replacement(current, next, 0, null, WriteOp.put(mapDomain, Bytes.ofLong(current.id()),
                    inlineValue(encoded), Expect.version(current.version())));
        }
        long physicalId = newId();
        return new Replacement(current, next, physicalId, WriteOp.insert(nodeDomain, Bytes.ofLong(physicalId), encoded),
                WriteOp.put(mapDomain, Bytes.ofLong(current.id()), pointerValue(physicalId), Expect.version(current.version())));
    }

    /** Records the outcome of a replacement's mapping write: the new reference, or null when it lost. */
    NodeRef finishReplace(Replacement r, WriteResult mapped) {
        if (!mapped.written()) {
            if (r.physicalId() != 0) {
                garbage.add(nodeKey(r.physicalId()));
            }
            return null;
        }
        if (r.current().physicalId() != 0) {
            garbage.add(nodeKey(r.current().physicalId()));
        }
        if (r.physicalId() != 0) {
            hints.put(r.current().id(), r.physicalId(), r.next());
        }
        return new NodeRef(r.current().id(), mapped.version(), r.physicalId(), r.next());
    }

    /**
     * Node {@code id} from its mapping record read by a batch, when that is enough: an inline
     * node, or one whose physical record this client has decoded. Null otherwise (including an
     * absent mapping); the caller then reads it with {@link #read}.
     */
    NodeRef fromMapping(long id, Versioned mapping) {
        if (mapping == null) {
            return null;
        }
        byte[] m = mapping.value();
        if (m[0] == INLINE) {
            return new NodeRef(id, mapping.version(), 0, decode(id, m, 1));
        }
        long physicalId = pointer(id, m);
        LeafHints.Hint hint = hints.get(id);
        return hint != null && hint.physicalId() == physicalId ? new NodeRef(id, mapping.version(), physicalId, hint.node()) : null;
    }

    /** The key of the physical record a pointer mapping of node {@code id} points to. */
    RecordKey physicalKey(long id, Versioned mapping) {
        return nodeKey(pointer(id, mapping.value()));
    }

    /**
     * Node {@code id} from its pointer mapping and the physical record it points to, remembered
     * as a hint; null when that record is gone (the mapping moved on and it was collected).
     */
    NodeRef fromPhysical(long id, Versioned mapping, Versioned physical) {
        if (physical == null) {
            return null;
        }
        long physicalId = pointer(id, mapping.value());
        BTreeNode node = decode(id, physical.value(), 0);
        hints.put(id, physicalId, node);
        return new NodeRef(id, mapping.version(), physicalId, node);
    }

    /**
     * Nodes {@code ids.get(i)} of trees {@code stores.get(i)}, all kept in {@code store}: the
     * mappings in one batch, then the physical records not decoded here yet in another (so one
     * round trip when every out-of-line node is hinted, two otherwise). Null for a node without
     * a mapping, or whose physical record was collected meanwhile (read it on its own).
     */
    static List<NodeRef> readAll(RecordStore store, List<NodeStore> stores, List<Long> ids) {
        List<RecordKey> keys = new ArrayList<>(ids.size());
        for (int i = 0; i < ids.size(); i++) {
            keys.add(stores.get(i).mapKey(ids.get(i)));
        }
        return resolve(store, stores, ids, TellException.join(store.getAllAsync(keys)));
    }

    /**
     * Nodes {@code ids.get(i)} from their mapping records {@code mappings.get(i)}: decoded where
     * the mapping suffices, the physical records of the others read in one batch.
     */
    private static List<NodeRef> resolve(RecordStore store, List<NodeStore> stores, List<Long> ids, List<Versioned> mappings) {
        List<NodeRef> out = new ArrayList<>(ids.size());
        List<Integer> unknown = new ArrayList<>();
        List<RecordKey> physicalKeys = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            NodeRef ref = stores.get(i).fromMapping(ids.get(i), mappings.get(i));
            out.add(ref);
            if (ref == null && mappings.get(i) != null) {
                unknown.add(i);
                physicalKeys.add(stores.get(i).physicalKey(ids.get(i), mappings.get(i)));
            }
        }
        if (!unknown.isEmpty()) {
            List<Versioned> physical = TellException.join(store.getAllAsync(physicalKeys));
            for (int j = 0; j < unknown.size(); j++) {
                int i = unknown.get(j);
                out.set(i, stores.get(i).fromPhysical(ids.get(i), mappings.get(i), physical.get(j)));
            }
        }
        return out;
    }

    /** Nodes {@code ids} of this tree from their mapping records {@code mappings}, as {@link #resolve} reads them. */
    List<NodeRef> resolve(List<Long> ids, List<Versioned> mappings) {
        return resolve(store, Collections.nCopies(ids.size(), this), ids, mappings);
    }

    /**
     * The mapping records of nodes {@code ids} in one batch, not decoded: for reading ahead,
     * where a caller may use only some of them ({@link #fromMapping} decodes one).
     */
    List<Versioned> readMappings(List<Long> ids) {
        List<RecordKey> keys = new ArrayList<>(ids.size());
        for (long id : ids) {
            keys.add(mapKey(id));
        }
        return TellException.join(store.getAllAsync(keys));
    }

    /** Nodes {@code ids} of this tree, as {@link #readAll(RecordStore, List, List)} reads them. */
    List<NodeRef> readAll(List<Long> ids) {
        return readAll(store, Collections.nCopies(ids.size(), this), ids);
    }

    /** Adds the queued garbage deletes (up to a batch's worth) to {@code ops}. */
    void drainGarbage(List<WriteOp> ops) {
        for (int i = 0; i < 64; i++) {
            RecordKey k = garbage.poll();
            if (k == null) {
                return;
            }
            ops.add(new WriteOp(k, null, Expect.ANY));
        }
    }

    /** Queues the records of a node that was created but never became reachable. */
    public void discard(NodeRef orphan) {
        garbage.add(mapKey(orphan.id()));
        if (orphan.physicalId() != 0) {
            garbage.add(nodeKey(orphan.physicalId()));
        }
    }

    /** Deletes every queued garbage record now. One round trip if there is any. */
    public void flushGarbage() {
        List<WriteOp> ops = new ArrayList<>();
        drainGarbage(ops);
        if (!ops.isEmpty()) {
            store.writeAll(ops);
        }
    }

    public int pendingGarbage() {
        return garbage.size();
    }

    /** Leaves of an inline tree, and removed leaves in any tree (so a mapping record alone tells one). */
    private boolean isInline(BTreeNode node) {
        return inlineLeaves && node.isLeaf() || node.isRemoved();
    }

    /** True when a mapping record holds a removed leaf. */
    static boolean holdsRemovedLeaf(byte[] mapping) {
        return mapping.length > 1 && mapping[0] == INLINE && NodeCodec.isRemovedLeaf(mapping, 1);
    }

    private RecordKey mapKey(long id) {
        return new RecordKey(mapDomain, Bytes.ofLong(id));
    }

    private RecordKey nodeKey(long physicalId) {
        return new RecordKey(nodeDomain, Bytes.ofLong(physicalId));
    }

    private static byte[] inlineValue(byte[] encoded) {
        byte[] v = new byte[encoded.length + 1];
        v[0] = INLINE;
        System.arraycopy(encoded, 0, v, 1, encoded.length);
        return v;
    }

    private static byte[] pointerValue(long physicalId) {
        byte[] v = new byte[9];
        v[0] = POINTER;
        Bytes.putLong(v, 1, physicalId);
        return v;
    }

    private static long pointer(long id, byte[] mapping) {
        if (mapping.length != 9 || mapping[0] != POINTER) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "bad mapping record for node " + id);
        }
        return Bytes.getLong(mapping, 1);
    }

    private static BTreeNode decode(long id, byte[] bytes, int offset) {
        BTreeNode node = NodeCodec.decode(bytes, offset);
        if (node.id() != id) {
            throw TellException.of(ErrorCode.CORRUPT_DATA, "mapping of node " + id + " leads to node " + node.id());
        }
        return node;
    }
}
