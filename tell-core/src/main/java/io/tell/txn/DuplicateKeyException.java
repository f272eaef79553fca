package io.tell.txn;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.HexFormat;

/**
 * A commit claimed a key of a unique index that a committed row already holds
 * ({@link ErrorCode#DUPLICATE_KEY}). Carries the index's tree name and the encoded key, so the
 * layer that knows the schema can say which constraint and which values.
 */
public final class DuplicateKeyException extends TellException {
    private final String index;
    private final byte[] key;

    public DuplicateKeyException(String index, byte[] key, long tid) {
        super(ErrorCode.DUPLICATE_KEY, "unique index " + index + " already holds key " + HexFormat.of().formatHex(key)
                + " (transaction " + tid + ")", null);
        this.index = index;
        this.key = key.clone();
    }

    /** The tree name of the unique index. */
    public String index() {
        return index;
    }

    /** The key, as the index encodes it. */
    public byte[] key() {
        return key.clone();
    }
}
