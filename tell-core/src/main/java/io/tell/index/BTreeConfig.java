package io.tell.index;

import io.tell.store.Domains;
import java.util.List;

/**
 * How a tree client works with one index. Validated once, immutable.
 *
 * @param name          the index's name; its records live in the domains {@code name.map},
 *                      {@code name.node} and {@code name.meta}
 * @param unique        whether a key may hold at most one rid (fixed when the tree is created;
 *                      every client must agree)
 * @param nodeCapacity  the most entries (leaf) or children (inner node) a node holds before it
 *                      splits; clients may differ
 * @param cacheEntries  how many inner nodes this client caches (0 = no cache)
 * @param idBatch       how many node ids one counter round trip reserves
 * @param inlineLeaves  whether a leaf lives inside its mapping record (one round trip to read,
 *                      one to change) instead of in a separate write-once record
 */
public record BTreeConfig(String name, boolean unique, int nodeCapacity, int cacheEntries, int idBatch,
                          boolean inlineLeaves) {
    public static final int DEFAULT_NODE_CAPACITY = 64;
    public static final int DEFAULT_CACHE_ENTRIES = 10_000;
    public static final int DEFAULT_ID_BATCH = 100;
    /** The longest key a tree takes, so that a node stays a reasonable record. */
    public static final int MAX_KEY_BYTES = 2048;

    public BTreeConfig {
        Domains.check(name + ".meta");
        if (nodeCapacity < 3 || nodeCapacity > 65_535) {
            throw new IllegalArgumentException("nodeCapacity must be in [3, 65535]: " + nodeCapacity);
        }
        if (cacheEntries < 0) {
            throw new IllegalArgumentException("cacheEntries must be >= 0: " + cacheEntries);
        }
        if (idBatch < 1) {
            throw new IllegalArgumentException("idBatch must be >= 1: " + idBatch);
        }
    }

    /** The domains a tree named {@code name} keeps its records in: mapping, physical nodes, meta (in that order). */
    public static List<String> domainsOf(String name) {
        return List.of(name + ".map", name + ".node", name + ".meta");
    }

    /**
     * Defaults: capacity 64, 10,000 cached inner nodes, ids 100 at a time, and leaves in
     * write-once records behind the mapping, as the design (architecture §7) has it. Inline
     * leaves ({@link #withInlineLeaves}) save a round trip per change; see docs/btree.md.
     */
    public static BTreeConfig of(String name, boolean unique) {
        return new BTreeConfig(name, unique, DEFAULT_NODE_CAPACITY, DEFAULT_CACHE_ENTRIES, DEFAULT_ID_BATCH, false);
    }

    public BTreeConfig withNodeCapacity(int n) {
        return new BTreeConfig(name, unique, n, cacheEntries, idBatch, inlineLeaves);
    }

    public BTreeConfig withCacheEntries(int n) {
        return new BTreeConfig(name, unique, nodeCapacity, n, idBatch, inlineLeaves);
    }

    public BTreeConfig withIdBatch(int n) {
        return new BTreeConfig(name, unique, nodeCapacity, cacheEntries, n, inlineLeaves);
    }

    public BTreeConfig withInlineLeaves(boolean inline) {
        return new BTreeConfig(name, unique, nodeCapacity, cacheEntries, idBatch, inline);
    }
}
