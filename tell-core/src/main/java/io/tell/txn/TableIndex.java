package io.tell.txn;

import io.tell.index.BTree;
import io.tell.index.BTreeConfig;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * An index of a table, kept by transactions. Rows of an indexed table are keyed by their rid
 * (8 bytes, big-endian: {@link #ridKey}); {@code keyOf} gives a row's index key, or null when
 * the row has none (e.g. a NULL column, which a unique index does not constrain).
 *
 * <p>Entries are version-unaware {@code (key, rid)} pairs in a non-unique tree, added at commit
 * when a row gets a key it did not have, never removed at commit (older snapshots may still
 * look a row up by its old key), and removed lazily by readers once the row is gone for
 * everyone. Rids must never be reused (they come from a per-table counter). A unique index also keeps one <i>claim</i> record per key, in domain
 * {@code <tree name>.uniq}, changed only by conditional writes: the claim arbitrates
 * concurrent inserts of one key from any number of processing nodes.
 */
public record TableIndex(String table, BTree tree, boolean unique, Function<byte[], byte[]> keyOf) {
    public TableIndex {
        if (tree.config().unique()) {
            throw new IllegalArgumentException("index trees of tables are non-unique; uniqueness is kept by claims: "
                    + tree.config().name());
        }
    }

    public String name() {
        return tree.config().name();
    }

    String claimDomain() {
        return claimDomainOf(name());
    }

    /** The domain of the unique claims of the index with tree {@code treeName}. */
    public static String claimDomainOf(String treeName) {
        return treeName + ".uniq";
    }

    /** Every domain an index with tree {@code treeName} may have records in: the tree's and the claims'. */
    public static List<String> domainsOf(String treeName) {
        List<String> out = new ArrayList<>(BTreeConfig.domainsOf(treeName));
        out.add(claimDomainOf(treeName));
        return out;
    }

    public static byte[] ridKey(long rid) {
        return ByteBuffer.allocate(8).putLong(rid).array();
    }

    public static long ridOf(byte[] recordKey) {
        if (recordKey.length != 8) {
            throw new IllegalArgumentException("rows of indexed tables are keyed by 8-byte rids");
        }
        return ByteBuffer.wrap(recordKey).getLong();
    }
}
