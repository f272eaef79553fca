package io.tell.store;

/**
 * A record's value together with its version, as a read returns it. Versions are positive;
 * a new write always gets a higher one than the key ever had.
 */
public record Versioned(byte[] value, long version) {
    public Versioned {
        if (value == null) {
            throw new IllegalArgumentException("value is null");
        }
        if (version <= 0) {
            throw new IllegalArgumentException("version must be positive: " + version);
        }
    }
}
