package io.tell.sql.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.BTreeConfig;
import io.tell.index.KeyEncoder;
import io.tell.sql.ColumnType;
import io.tell.sql.SqlType;
import io.tell.sql.TableDef;
import io.tell.txn.TableIndex;
import java.util.List;

/**
 * Refuses a row whose key in an index is longer than a B-tree key may be
 * ({@link BTreeConfig#MAX_KEY_BYTES}), when a statement produces the row. Checked there, before
 * anything is written: the tree itself would only refuse the key at commit, after the
 * transaction log entry, and without saying which index or columns made it. An index whose
 * column types bound its keys within the limit (integers, short strings) costs no check.
 */
public final class IndexKeySize {
    private final TableIndex index;
    private final String what;
    private final List<String> columns;
    private final boolean mayExceed;

    private IndexKeySize(TableIndex index, String what, List<String> columns, boolean mayExceed) {
        this.index = index;
        this.what = what;
        this.columns = columns;
        this.mayExceed = mayExceed;
    }

    /** The check of {@code index} over {@code columns} of {@code table}; {@code what} names it in errors ("index X of table T"). */
    public static IndexKeySize of(TableDef table, TableIndex index, String what, List<String> columns) {
        return new IndexKeySize(index, what, columns, maxKeyBytes(table, columns) > BTreeConfig.MAX_KEY_BYTES);
    }

    /** The most bytes a key over {@code columns} can take, given their declared types. */
    static long maxKeyBytes(TableDef table, List<String> columns) {
        long max = 0;
        for (String c : columns) {
            ColumnType t = table.columns().get(table.columnIndex(c)).type();
            max += KeyEncoder.maxBytes(t.type().keyType(), t.type() == SqlType.DECIMAL ? t.precision() : t.length());
        }
        return max;
    }

    /** Throws {@link ErrorCode#KEY_TOO_LONG} naming the index and its columns when {@code row}'s key is too long. */
    public void check(byte[] row) {
        if (!mayExceed) {
            return;
        }
        byte[] key = index.keyOf().apply(row);
        if (key != null && key.length > BTreeConfig.MAX_KEY_BYTES) {
            throw TellException.of(ErrorCode.KEY_TOO_LONG, what + " (" + String.join(", ", columns) + "): key of "
                    + key.length + " bytes is longer than the " + BTreeConfig.MAX_KEY_BYTES + " bytes an index key may have");
        }
    }
}
