package io.tell.store;

/**
 * One conditional write: put {@code value} (or delete when {@code value} is null) at
 * {@code key} if the record's state satisfies {@code expect}; or, made by {@link #check}, only
 * the test of {@code expect}, writing nothing.
 */
public record WriteOp(RecordKey key, byte[] value, Expect expect) {
    /** The value of a check: compared by identity, never stored. */
    private static final byte[] CHECK = new byte[0];

    public WriteOp {
        if (key == null || expect == null) {
            throw new IllegalArgumentException("key and expect are required");
        }
    }

    public static WriteOp put(String domain, byte[] key, byte[] value, Expect expect) {
        return new WriteOp(new RecordKey(domain, key), nonNull(value), expect);
    }

    public static WriteOp insert(String domain, byte[] key, byte[] value) {
        return new WriteOp(new RecordKey(domain, key), nonNull(value), Expect.ABSENT);
    }

    public static WriteOp delete(String domain, byte[] key, Expect expect) {
        return new WriteOp(new RecordKey(domain, key), null, expect);
    }

    /**
     * A check that rides in a write batch: whether the record at {@code key} satisfies
     * {@code expect} now. Nothing is written; a satisfied check answers
     * {@link WriteResult.Written} with the record's current version (0 when absent).
     */
    public static WriteOp check(RecordKey key, Expect expect) {
        return new WriteOp(key, CHECK, expect);
    }

    public boolean isCheck() {
        return value == CHECK;
    }

    public boolean isDelete() {
        return value == null;
    }

    private static byte[] nonNull(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value is null (use delete)");
        }
        return value;
    }
}
