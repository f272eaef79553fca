package io.tell.txn;

/**
 * Isolation levels. {@link #SNAPSHOT} is snapshot isolation (the default, JDBC's
 * REPEATABLE_READ). {@link #SERIALIZABLE} is snapshot isolation plus validation at commit,
 * after the transaction's own writes are applied: every record it read must still have the
 * version it saw as its newest, and every index range it scanned must have gained no entry;
 * otherwise it aborts with a conflict. Never a silent downgrade.
 */
public enum Isolation { SNAPSHOT, SERIALIZABLE }
