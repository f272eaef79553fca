package io.tell.store;

/** The outcome of one conditional write: written, or refused because the condition failed. */
public sealed interface WriteResult {
    /**
     * The write took effect. {@code version} is the version the record now has; for a delete
     * it is the version the delete consumed (no later write of that key can get it or lower).
     */
    record Written(long version) implements WriteResult {
    }

    /** The condition failed and nothing changed; {@code currentVersion} is 0 when the record is absent. */
    record Conflict(long currentVersion) implements WriteResult {
    }

    default boolean written() {
        return this instanceof Written;
    }

    /** The version written; throws if this is a conflict. */
    default long version() {
        if (this instanceof Written w) {
            return w.version();
        }
        throw new IllegalStateException("not written: " + this);
    }
}
