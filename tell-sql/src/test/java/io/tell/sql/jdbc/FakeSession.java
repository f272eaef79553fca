package io.tell.sql.jdbc;

import io.tell.error.TellException;
import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.txn.Isolation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A scripted {@link SqlSession} for testing the JDBC layer before the engine exists: each SQL
 * text is declared with its kind, columns, parameters and what executing it returns; every
 * execution is recorded. Transactions are only tracked as a flag.
 */
final class FakeSession implements SqlSession {
    /** One recorded execution. */
    record Execution(String sql, List<?> params, long maxRows, long timeoutMillis) {
    }

    private record Statement(PreparedSql prepared, Function<List<?>, SqlResult> run) {
    }

    private final Map<String, Statement> statements = new HashMap<>();
    final List<Execution> executions = new ArrayList<>();
    boolean autoCommit = true;
    boolean inTransaction;
    Isolation isolation = Isolation.SNAPSHOT;
    boolean readOnly;
    int commits;
    int rollbacks;
    int cancels;
    boolean closed;

    static ColumnInfo column(String label, int jdbcType, Class<?> javaClass) {
        return new ColumnInfo(label, "T", label, jdbcType, javaClass.getSimpleName().toUpperCase(), 10, 0, true, javaClass);
    }

    /** A query returning {@code rows} (all of them, whatever maxRows says). */
    FakeSession query(String sql, List<ColumnInfo> columns, List<ColumnInfo> parameters, List<Object[]> rows) {
        statements.put(sql, new Statement(prepared(sql, PreparedSql.Kind.QUERY, columns, parameters),
                params -> new InMemoryResult(rows)));
        return this;
    }

    /** A DML statement whose update count {@code count} computes from the parameters (it may throw). */
    FakeSession update(String sql, List<ColumnInfo> parameters, Function<List<?>, Long> count) {
        statements.put(sql, new Statement(prepared(sql, PreparedSql.Kind.DML, List.of(), parameters),
                params -> updateResult(count.apply(params))));
        return this;
    }

    /** SQL that fails to prepare with {@code failure}. */
    FakeSession failing(String sql, TellException failure) {
        statements.put(sql, new Statement(null, params -> {
            throw failure;
        }));
        return this;
    }

    private static PreparedSql prepared(String sql, PreparedSql.Kind kind, List<ColumnInfo> columns,
                                        List<ColumnInfo> parameters) {
        return new PreparedSql() {
            @Override
            public String sql() {
                return sql;
            }

            @Override
            public Kind kind() {
                return kind;
            }

            @Override
            public List<ColumnInfo> columns() {
                return columns;
            }

            @Override
            public List<ColumnInfo> parameters() {
                return parameters;
            }
        };
    }

    private static SqlResult updateResult(long count) {
        return new SqlResult() {
            @Override
            public boolean hasRows() {
                return false;
            }

            @Override
            public long updateCount() {
                return count;
            }

            @Override
            public boolean next() {
                return false;
            }

            @Override
            public Object[] row() {
                return null;
            }

            @Override
            public void close() {
            }
        };
    }

    @Override
    public PreparedSql prepare(String sql) {
        Statement s = statements.get(sql);
        if (s == null) {
            throw new IllegalStateException("the test did not declare " + sql);
        }
        if (s.prepared() == null) {
            s.run().apply(List.of());
        }
        return s.prepared();
    }

    @Override
    public SqlResult execute(PreparedSql statement, List<?> params, long maxRows, long timeoutMillis) {
        executions.add(new Execution(statement.sql(), params, maxRows, timeoutMillis));
        if (!autoCommit) {
            inTransaction = true;
        }
        return statements.get(statement.sql()).run().apply(params);
    }

    List<?> lastParams() {
        return executions.getLast().params();
    }

    @Override
    public void setStatementChecks(boolean on) {
    }

    @Override
    public io.tell.sql.SchemaPath schemaPath() {
        return io.tell.sql.SchemaPath.DEFAULT;
    }

    @Override
    public void setSchemaPath(io.tell.sql.SchemaPath path) {
        // one schema path is as good as another to a session that runs no SQL
    }

    @Override
    public boolean autoCommit() {
        return autoCommit;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) {
        if (autoCommit && inTransaction) {
            commit();
        }
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean inTransaction() {
        return inTransaction;
    }

    @Override
    public void setSavepoint(String name) {
        throw new UnsupportedOperationException("savepoints");
    }

    @Override
    public void rollbackToSavepoint(String name) {
        throw new UnsupportedOperationException("savepoints");
    }

    @Override
    public void releaseSavepoint(String name) {
        throw new UnsupportedOperationException("savepoints");
    }

    @Override
    public void commit() {
        commits++;
        inTransaction = false;
    }

    @Override
    public void rollback() {
        rollbacks++;
        inTransaction = false;
    }

    @Override
    public Isolation isolation() {
        return isolation;
    }

    @Override
    public void setIsolation(Isolation isolation) {
        this.isolation = isolation;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    @Override
    public void cancel() {
        cancels++;
    }

    @Override
    public ProcessingNode node() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
        if (inTransaction) {
            rollback();
        }
        closed = true;
    }
}
