package io.tell.server.internal;

import io.tell.sql.SqlSession;
import io.tell.txn.Isolation;

/**
 * PostgreSQL's transaction states over a {@link SqlSession}. An explicit block (BEGIN … COMMIT)
 * turns auto-commit off; an error inside it fails the whole block, as in PostgreSQL: every
 * command but COMMIT/ROLLBACK gets 25P02 until the client ends it, and the engine's
 * transaction is rolled back then (Tell alone would let a transaction survive a data error).
 * An implicit block makes the statements of one Query message, or the writes between two Syncs
 * of the extended protocol, one transaction, as PostgreSQL does: a pgjdbc batch commits once,
 * and a failure leaves none of it.
 */
final class TransactionBlock {
    private final SqlSession session;
    private boolean explicit;
    private boolean implicit;
    private boolean failed;
    private String defaultIsolation = "repeatable read";
    private boolean defaultReadOnly;
    private String isolation = defaultIsolation;
    /** The server serves only reads (an OLAP pool's): no transaction may be READ WRITE. */
    private final boolean onlyReads;

    TransactionBlock(SqlSession session, boolean onlyReads) {
        this.session = session;
        this.onlyReads = onlyReads;
        if (onlyReads) {
            defaultReadOnly = true;
            session.setReadOnly(true);
        }
    }

    /** ReadyForQuery's status byte. */
    char status() {
        return failed ? 'E' : explicit ? 'T' : 'I';
    }

    boolean failed() {
        return failed;
    }

    boolean explicit() {
        return explicit;
    }

    /** PostgreSQL's name of the isolation the current (or next) transaction runs at. */
    String isolation() {
        return explicit ? isolation : defaultIsolation;
    }

    boolean readOnly() {
        return session.readOnly();
    }

    void begin(ControlCommand.Modes modes) {
        if (explicit) {
            return; // PostgreSQL warns "there is already a transaction in progress" and goes on
        }
        if (!implicit) {
            session.setAutoCommit(false);
        }
        implicit = false;
        explicit = true;
        apply(modes);
    }

    /** SET TRANSACTION (this block only) or SET SESSION CHARACTERISTICS AS TRANSACTION (the default). */
    void setModes(ControlCommand.Modes modes, boolean sessionDefault) {
        checkReadOnly(modes);
        if (sessionDefault) {
            if (modes.isolation() != null) {
                defaultIsolation = modes.isolation();
            }
            if (modes.readOnly() != null) {
                defaultReadOnly = modes.readOnly();
            }
            if (!explicit) {
                apply(ControlCommand.Modes.NONE);
            }
        } else if (explicit) {
            apply(modes);
        }
        // SET TRANSACTION outside a block does nothing in PostgreSQL either (it warns)
    }

    private void checkReadOnly(ControlCommand.Modes modes) {
        if (onlyReads && Boolean.FALSE.equals(modes.readOnly())) {
            throw new PgError("25006", "this server serves a read-only pool: every transaction is READ ONLY; send writes to an OLTP pool");
        }
    }

    private void apply(ControlCommand.Modes modes) {
        checkReadOnly(modes);
        isolation = modes.isolation() != null ? modes.isolation() : defaultIsolation;
        session.setIsolation(isolation.equals("serializable") ? Isolation.SERIALIZABLE : Isolation.SNAPSHOT);
        session.setReadOnly(modes.readOnly() != null ? modes.readOnly() : defaultReadOnly);
    }

    /** COMMIT: commits, or rolls back a failed block; returns the tag PostgreSQL sends for what happened. */
    String commit() {
        if (failed) {
            rollback();
            return "ROLLBACK";
        }
        try {
            session.commit();
        } finally {
            end();
        }
        return "COMMIT";
    }

    void rollback() {
        try {
            session.rollback();
        } finally {
            end();
        }
    }

    private void end() {
        explicit = false;
        implicit = false;
        failed = false;
        session.setAutoCommit(true);
        apply(ControlCommand.Modes.NONE);
    }

    /** Before a write outside an explicit block, when the statements up to the next Sync or query end are one transaction. */
    void beginImplicit() {
        if (!explicit && !implicit) {
            session.setAutoCommit(false);
            implicit = true;
        }
    }

    /** At Sync or the end of a Query message: commits an implicit block. */
    void endImplicit() {
        if (implicit) {
            implicit = false;
            try {
                session.commit();
            } finally {
                session.setAutoCommit(true);
            }
        }
    }

    /** SAVEPOINT: only inside a block (25P01 otherwise, as in PostgreSQL). */
    void savepoint(String name) {
        if (!explicit) {
            throw new PgError("25P01", "SAVEPOINT can only be used in transaction blocks");
        }
        session.setSavepoint(name);
    }

    /**
     * ROLLBACK TO SAVEPOINT: undoes what the block did since, and makes a failed block usable
     * again, unless the error already rolled the engine's transaction back (a conflict, say),
     * which only a ROLLBACK ends.
     */
    void rollbackTo(String name) {
        if (!explicit) {
            throw new PgError("25P01", "ROLLBACK TO SAVEPOINT can only be used in transaction blocks");
        }
        session.rollbackToSavepoint(name);
        failed = false;
    }

    /** RELEASE SAVEPOINT. */
    void release(String name) {
        if (!explicit) {
            throw new PgError("25P01", "RELEASE SAVEPOINT can only be used in transaction blocks");
        }
        session.releaseSavepoint(name);
    }

    /** After a failed command: an explicit block fails, an implicit one is rolled back at once. */
    void onError() {
        if (explicit) {
            failed = true;
        } else if (implicit) {
            implicit = false;
            try {
                session.rollback();
            } finally {
                session.setAutoCommit(true);
            }
        }
    }
}
