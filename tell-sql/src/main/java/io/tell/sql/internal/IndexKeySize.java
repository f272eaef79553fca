package io.tell.sql.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTreeConfig;
import io.tell.txn.TableIndex;
import java.util.List;

/**
 * Refuses a row whose key in an index is longer than a B-tree key may be
 * ({@link BTreeConfig#MAX_KEY_BYTES}), when a statement produces the row. Checked there, before
 * anything is written: the tree itself would only refuse the key at commit, after the
 * transaction log entry, and without saying which index or columns made it.
 */
public final class IndexKeySize {
    private IndexKeySize() {
    }

    /** Throws {@link ErrorCode#KEY_TOO_LONG} naming {@code what} (e.g. "index X of table T") and its columns. */
    public static void check(TableIndex index, String what, List<String> columns, byte[] row) {
        byte[] key = index.keyOf().apply(row);
        if (key != null && key.length > BTreeConfig.MAX_KEY_BYTES) {
            throw TellException.of(ErrorCode.KEY_TOO_LONG, what + " (" + String.join(", ", columns) + "): key of "
                    + key.length + " bytes is longer than the " + BTreeConfig.MAX_KEY_BYTES + " bytes an index key may have");
        }
    }
}
