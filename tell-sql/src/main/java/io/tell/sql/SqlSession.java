package io.tell.sql;

import io.tell.txn.Isolation;
import java.util.List;

/**
 * One connection's view of a {@link ProcessingNode}: prepares and executes SQL within its
 * current transaction. In auto-commit mode (the default) every statement is its own
 * transaction; otherwise a transaction starts with the first statement and lasts until
 * {@link #commit()} or {@link #rollback()}. Errors are {@link io.tell.error.TellException}s;
 * {@link SqlStates} gives their SQLState. A failed statement inside an explicit transaction
 * aborts that transaction when its cause is a conflict or duplicate key at commit; bad SQL and
 * bad values leave the transaction and the session usable.
 *
 * <p>Used by one thread at a time, except {@link #cancel()}, which any thread may call.
 */
public interface SqlSession extends AutoCloseable {
    /**
     * With {@code on}, data modifications in an explicit transaction check for conflicts when
     * they run, as PostgreSQL's do: a row a concurrent transaction changed since this one's
     * snapshot fails the UPDATE or DELETE with 40001, and a unique key a visible row holds fails
     * the INSERT with 23505 (a store round trip per statement, or per row and key for inserts).
     * Off (the default), both are found at commit. JDBC property {@code conflicts=statement}.
     */
    void setStatementChecks(boolean on);

    /** Parses, validates and plans {@code sql} (or takes the plan from the node's cache). */
    PreparedSql prepare(String sql);

    /**
     * Prepares {@code sql} so that, when it is an INSERT, UPDATE or DELETE without a RETURNING
     * clause of its own, it returns the changed rows' {@code columns} (JDBC's generated keys):
     * names matched to the target table's columns (exactly, else ignoring case), or, when
     * {@code columns} is empty, the columns filled from a sequence (identity, SERIAL), or every
     * column when it has none. Any other statement is prepared as it is.
     */
    default PreparedSql prepareReturning(String sql, List<String> columns) {
        return prepare(sql);
    }

    /**
     * Executes {@code statement} with {@code params} (one value per {@code ?}; converted to the
     * parameter's type, with a clear error when they do not convert). {@code maxRows} limits
     * a query's rows (0: no limit); {@code timeoutMillis} bounds the run (0: none).
     */
    SqlResult execute(PreparedSql statement, List<?> params, long maxRows, long timeoutMillis);

    /** Where names written without a schema are looked for, and new objects go ({@link SchemaPath}). */
    SchemaPath schemaPath();

    /** Sets the schema path; schemas in it need not exist (those that do not are skipped, as in PostgreSQL). */
    void setSchemaPath(SchemaPath path);

    boolean autoCommit();

    /** Switching auto-commit on commits an open transaction (as JDBC requires). */
    void setAutoCommit(boolean autoCommit);

    /** True while an explicit transaction is open. */
    boolean inTransaction();

    void commit();

    void rollback();

    /**
     * SAVEPOINT {@code name}: a point the open transaction can go back to; only with auto-commit
     * off ({@link io.tell.error.ErrorCode#TX_STATE} otherwise). A name may be used again: the
     * newest savepoint of a name is the one meant.
     */
    void setSavepoint(String name);

    /**
     * ROLLBACK TO SAVEPOINT {@code name}: undoes the writes since; that savepoint stays, later
     * ones go. {@link io.tell.error.ErrorCode#NO_SUCH_SAVEPOINT} when there is none of that
     * name; {@link io.tell.error.ErrorCode#TX_STATE} when an error already rolled the whole
     * transaction back.
     */
    void rollbackToSavepoint(String name);

    /** RELEASE SAVEPOINT {@code name}: forgets it and every later one; their writes stay. */
    void releaseSavepoint(String name);

    Isolation isolation();

    /** Takes effect with the next transaction; {@link io.tell.error.ErrorCode#TX_STATE} inside one. */
    void setIsolation(Isolation isolation);

    boolean readOnly();

    void setReadOnly(boolean readOnly);

    /** Cancels the statement running in this session, if any. */
    void cancel();

    ProcessingNode node();

    /** Rolls back an open transaction and releases the session. */
    @Override
    void close();
}
