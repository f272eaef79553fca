package io.tell.store;

/**
 * One conditional write: put {@code value} (or delete when {@code value} is null) at
 * {@code key} if the record's state satisfies {@code expect}; or, made by {@link #check}, only
 * the test of {@code expect}, writing nothing. A {@link #asChained chained} write is made only if every
 * unchained write and check before it in its batch succeeded.
 */
public record WriteOp(RecordKey key, byte[] value, Expect expect, boolean chained) {
    /** The value of a check: compared by identity, never stored. */
    private static final byte[] CHECK = new byte[0];

    public WriteOp {
        if (key == null || expect == null) {
            throw new IllegalArgumentException("key and expect are required");
        }
        if (chained && value == CHECK) {
            throw new IllegalArgumentException("a check cannot be chained");
        }
    }

    public WriteOp(RecordKey key, byte[] value, Expect expect) {
        this(key, value, expect, false);
    }

    /**
     * This write, made only if every unchained write and check before it in its batch ({@link
     * RecordStore#writeAllAsync}) succeeded; otherwise it changes nothing and answers {@link
     * WriteResult.Conflict} with the record's current version. Chained writes do not depend on
     * each other. It lets writes that must follow others share their batch: pointers to records
     * the batch creates, each made only if all of them exist, or a decision on what the batch
     * wrote. A store that runs a batch in one step checks the chain there; others send what
     * follows a chained write once the writes before it are answered.
     */
    public WriteOp asChained() {
        return new WriteOp(key, value, expect, true);
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
