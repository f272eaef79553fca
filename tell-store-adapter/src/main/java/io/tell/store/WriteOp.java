package io.tell.store;

/**
 * One conditional write: put {@code value} (or delete when {@code value} is null) at
 * {@code key} if the record's state satisfies {@code expect}.
 */
public record WriteOp(RecordKey key, byte[] value, Expect expect) {
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
