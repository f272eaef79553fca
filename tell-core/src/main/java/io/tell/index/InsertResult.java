package io.tell.index;

/** What an insert did. A refused duplicate is a result, not an exception. */
public sealed interface InsertResult {
    /** The entry is now in the index. */
    record Inserted() implements InsertResult {
    }

    /** The same (key, rid) entry was already there; nothing changed. */
    record AlreadyPresent() implements InsertResult {
    }

    /** A unique index already holds {@code existingRid} under this key; nothing changed. */
    record DuplicateKey(long existingRid) implements InsertResult {
    }

    InsertResult INSERTED = new Inserted();
    InsertResult ALREADY_PRESENT = new AlreadyPresent();

    default boolean inserted() {
        return this instanceof Inserted;
    }
}
