package io.tell.sql.jdbc;

import io.tell.sql.SchemaPath;
import io.tell.sql.SqlSession;
import io.tell.txn.Isolation;
import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * A connection's {@link SqlSession}, opened on first use: a connection that only reads
 * metadata never needs one. Until it opens, this holds the auto-commit, isolation and
 * read-only settings and the schema path and hands them over when it does; from then on the session holds them.
 * Engine failures come out as SQLExceptions.
 */
final class LazySession {
    private final Supplier<SqlSession> opener;
    private volatile SqlSession session;
    private boolean autoCommit = true;
    private Isolation isolation = Isolation.SNAPSHOT;
    private boolean readOnly;
    private SchemaPath path = SchemaPath.DEFAULT;

    LazySession(Supplier<SqlSession> opener) {
        this.opener = opener;
    }

    /** The session, opened now if it is not yet. */
    SqlSession get() throws SQLException {
        SqlSession s = session;
        if (s == null) {
            try {
                s = opener.get();
                s.setIsolation(isolation);
                s.setReadOnly(readOnly);
                s.setAutoCommit(autoCommit);
                s.setSchemaPath(path);
            } catch (RuntimeException e) {
                if (s != null) {
                    s.close();
                }
                throw SqlExceptions.of(e);
            }
            session = s;
        }
        return s;
    }

    boolean autoCommit() {
        SqlSession s = session;
        return s != null ? s.autoCommit() : autoCommit;
    }

    void setAutoCommit(boolean on) throws SQLException {
        SqlSession s = session;
        if (s != null) {
            run(() -> s.setAutoCommit(on));
        }
        autoCommit = on;
    }

    Isolation isolation() {
        SqlSession s = session;
        return s != null ? s.isolation() : isolation;
    }

    void setIsolation(Isolation level) throws SQLException {
        SqlSession s = session;
        if (s != null) {
            run(() -> s.setIsolation(level));
        }
        isolation = level;
    }

    SchemaPath schemaPath() {
        SqlSession s = session;
        return s != null ? s.schemaPath() : path;
    }

    void setSchemaPath(SchemaPath p) {
        SqlSession s = session;
        if (s != null) {
            s.setSchemaPath(p);
        }
        path = p;
    }

    boolean readOnly() {
        SqlSession s = session;
        return s != null ? s.readOnly() : readOnly;
    }

    void setReadOnly(boolean on) throws SQLException {
        SqlSession s = session;
        if (s != null) {
            run(() -> s.setReadOnly(on));
        }
        readOnly = on;
    }

    /** Commits the open transaction; without one (or without a session) there is nothing to do, as JDBC expects. */
    void commit() throws SQLException {
        SqlSession s = session;
        if (s != null && s.inTransaction()) {
            run(s::commit);
        }
    }

    /** Rolls back the open transaction, if any: an application's {@code rollback()} after a failed commit is harmless. */
    void rollback() throws SQLException {
        SqlSession s = session;
        if (s != null && s.inTransaction()) {
            run(s::rollback);
        }
    }

    void setSavepoint(String name) throws SQLException {
        SqlSession s = get();
        run(() -> s.setSavepoint(name));
    }

    void rollbackToSavepoint(String name) throws SQLException {
        SqlSession s = get();
        run(() -> s.rollbackToSavepoint(name));
    }

    void releaseSavepoint(String name) throws SQLException {
        SqlSession s = get();
        run(() -> s.releaseSavepoint(name));
    }

    /** Cancels the running statement, if any; safe from any thread. */
    void cancel() throws SQLException {
        SqlSession s = session;
        if (s != null) {
            run(s::cancel);
        }
    }

    /** Rolls back an open transaction and releases the session. */
    void close() throws SQLException {
        SqlSession s = session;
        session = null;
        if (s != null) {
            run(s::close);
        }
    }

    private static void run(Runnable action) throws SQLException {
        try {
            action.run();
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
    }
}
