package io.tell.store;

/** A record as a scan returns it. */
public record StoredRecord(byte[] key, byte[] value, long version) {
}
