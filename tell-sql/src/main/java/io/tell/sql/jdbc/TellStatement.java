package io.tell.sql.jdbc;

import io.tell.sql.PreparedSql;
import io.tell.sql.SqlResult;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A statement of a {@link TellConnection}: each SQL text is prepared through the session and
 * executed at once. At most one result is current: a result set (queries) or an update count;
 * running again, {@link #getMoreResults()} and {@link #close()} close the current result set.
 * A batch stops at its first failure, reported as a {@link BatchUpdateException} with the
 * counts of the commands before it and the failure's SQLState.
 */
public class TellStatement extends TellWrapper implements Statement {
    final TellConnection connection;
    private final List<String> batch = new ArrayList<>();
    private TellResultSet resultSet;
    private long updateCount = -1;
    /** The rows getGeneratedKeys returns: those the last execution (or batch) with keys returned. */
    private List<Object[]> keyRows = List.of();
    private List<io.tell.sql.ColumnInfo> keyColumns = List.of();
    private long maxRows;
    private int queryTimeout;
    private int fetchSize;
    private int maxFieldSize;
    private boolean poolable;
    private boolean closeOnCompletion;
    private volatile boolean closed;
    private SQLWarning warnings;

    TellStatement(TellConnection connection) {
        this(connection, false);
    }

    TellStatement(TellConnection connection, boolean poolable) {
        this.connection = connection;
        this.poolable = poolable;
    }

    /** Runs {@code statement}: its result set or update count becomes current. True for a result set. */
    final boolean run(PreparedSql statement, List<?> params) throws SQLException {
        checkOpen();
        closeResultSet();
        updateCount = -1;
        keyRows = List.of();
        keyColumns = List.of();
        SqlResult result;
        try {
            result = connection.session().execute(statement, params, maxRows, queryTimeout * 1000L);
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        if (result.hasRows()) {
            resultSet = new TellResultSet(this, statement.columns(), result, maxRows);
            return true;
        }
        try (result) {
            updateCount = result.updateCount();
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        return false;
    }

    /**
     * Runs {@code statement}, prepared to return generated keys ({@link
     * io.tell.sql.SqlSession#prepareReturning}): a data modification's returned rows become the
     * generated keys ({@code keep}: added to those of earlier commands of a batch) and their
     * number the update count. Any other statement runs as {@link #run} does.
     */
    final boolean runReturningKeys(PreparedSql statement, List<?> params, boolean keep) throws SQLException {
        if (statement.kind() != PreparedSql.Kind.QUERY || !statement.writes()) {
            return run(statement, params);
        }
        List<Object[]> rows = new ArrayList<>(keep ? keyRows : List.of());
        int before = rows.size();
        checkOpen();
        closeResultSet();
        updateCount = -1;
        keyRows = List.of();
        try (SqlResult result = connection.session().execute(statement, params, 0, queryTimeout * 1000L)) {
            while (result.next()) {
                rows.add(result.row());
            }
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        keyRows = rows;
        keyColumns = statement.columns();
        updateCount = rows.size() - before;
        return false;
    }

    /** Prepares {@code sql} to return generated keys: {@code columns}, or the table's generated ones when empty. */
    PreparedSql prepareReturning(String sql, List<String> columns) throws SQLException {
        checkOpen();
        return connection.prepareReturning(sql, columns);
    }

    static List<String> names(String[] columnNames) throws SQLException {
        if (columnNames == null || columnNames.length == 0) {
            throw SqlExceptions.invalidArgument("no column names for generated keys");
        }
        return List.of(columnNames);
    }

    /** Prepares SQL text given to this statement; a {@link TellPreparedStatement} takes none. */
    PreparedSql prepareText(String sql) throws SQLException {
        checkOpen();
        return connection.prepare(sql);
    }

    /** Runs a query: its result set, never null. */
    final ResultSet query(PreparedSql statement, List<?> params) throws SQLException {
        requireQuery(statement);
        if (!run(statement, params)) {
            throw SqlExceptions.of(SqlExceptions.NOT_A_QUERY, "the query returned no result set: " + statement.sql());
        }
        return resultSet;
    }

    private static void requireQuery(PreparedSql statement) throws SQLException {
        if (statement.kind() != PreparedSql.Kind.QUERY) {
            throw SqlExceptions.of(SqlExceptions.NOT_A_QUERY, "executeQuery needs a query, and this is "
                    + statement.kind() + ": " + statement.sql());
        }
    }

    static void requireUpdate(PreparedSql statement) throws SQLException {
        if (statement.kind() == PreparedSql.Kind.QUERY) {
            throw SqlExceptions.of(SqlExceptions.QUERY_NOT_ALLOWED, "a query returns rows, not an update count; use "
                    + "executeQuery or execute: " + statement.sql());
        }
    }

    static void checkGeneratedKeys(int autoGeneratedKeys) throws SQLException {
        if (autoGeneratedKeys != RETURN_GENERATED_KEYS && autoGeneratedKeys != NO_GENERATED_KEYS) {
            throw SqlExceptions.invalidArgument("not a generated-keys constant: " + autoGeneratedKeys);
        }
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return run(prepareText(sql), List.of());
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        PreparedSql statement = prepareText(sql);
        return query(statement, List.of());
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        PreparedSql statement = prepareText(sql);
        requireUpdate(statement);
        run(statement, List.of());
        return updateCount;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return clamp(executeLargeUpdate(sql));
    }

    static int clamp(long count) {
        return (int) Math.min(count, Integer.MAX_VALUE);
    }

    // The generated-keys variants append a RETURNING clause to an INSERT, UPDATE or DELETE
    // (io.tell.sql.SqlSession#prepareReturning); getGeneratedKeys then holds its rows. Keys by
    // column index are refused, as PostgreSQL's driver refuses them.
    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeys(autoGeneratedKeys);
        return autoGeneratedKeys == NO_GENERATED_KEYS ? execute(sql)
                : runReturningKeys(prepareReturning(sql, List.of()), List.of(), false);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        throw SqlExceptions.unsupported("generated keys by column index (name the columns instead)");
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return runReturningKeys(prepareReturning(sql, names(columnNames)), List.of(), false);
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return clamp(executeLargeUpdate(sql, autoGeneratedKeys));
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return clamp(executeLargeUpdate(sql, columnIndexes));
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return clamp(executeLargeUpdate(sql, columnNames));
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        checkGeneratedKeys(autoGeneratedKeys);
        if (autoGeneratedKeys == NO_GENERATED_KEYS) {
            return executeLargeUpdate(sql);
        }
        return updateWithKeys(prepareReturning(sql, List.of()));
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        throw SqlExceptions.unsupported("generated keys by column index (name the columns instead)");
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return updateWithKeys(prepareReturning(sql, names(columnNames)));
    }

    private long updateWithKeys(PreparedSql statement) throws SQLException {
        if (!statement.writes()) {
            requireUpdate(statement);
        }
        runReturningKeys(statement, List.of(), false);
        return updateCount;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw SqlExceptions.invalidArgument("the SQL text is null");
        }
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> commands = List.copyOf(batch);
        batch.clear();
        return runBatch(commands.size(), i -> {
            PreparedSql statement = prepareText(commands.get(i));
            requireUpdate(statement);
            run(statement, List.of());
            return updateCount;
        });
    }

    /** One command of a batch: runs command {@code i} and returns its update count. */
    interface BatchCommand {
        long run(int i) throws SQLException;
    }

    /**
     * Runs a batch's commands in order, stopping at the first failure. In auto-commit mode the
     * batch is one transaction, as PostgreSQL's driver makes it: its rows reach the store in
     * one commit (a bulk load pays one commit per batch, not per row), and a failure — of a
     * command or of the commit — leaves nothing of it.
     */
    long[] runBatch(int size, BatchCommand command) throws SQLException {
        boolean oneTransaction = size > 1 && connection.getAutoCommit();
        if (oneTransaction) {
            connection.setAutoCommit(false);
        }
        long[] counts = new long[size];
        int i = 0;
        try {
            for (; i < size; i++) {
                counts[i] = command.run(i);
            }
            if (oneTransaction) {
                connection.setAutoCommit(true); // commits the batch
            }
        } catch (SQLException e) {
            if (oneTransaction) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
            String what = i < size ? "batch command " + (i + 1) + " failed" : "the batch's commit failed";
            if (oneTransaction) {
                what += " (the batch ran as one transaction and was rolled back: none of it stays)";
            }
            if (i == size) {
                Arrays.fill(counts, EXECUTE_FAILED); // every command ran, and none of them counts
            }
            throw batchFailure(what, e, Arrays.copyOf(counts, i));
        } finally {
            updateCount = -1;
        }
        return counts;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        return Arrays.stream(executeLargeBatch()).mapToInt(TellStatement::clamp).toArray();
    }

    private static BatchUpdateException batchFailure(String what, SQLException e, long[] done) {
        BatchUpdateException failure = new BatchUpdateException(what + ": " + e.getMessage(), e.getSQLState(), 0, done, e);
        failure.setNextException(e);
        return failure;
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return resultSet;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        return clamp(getLargeUpdateCount());
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    /** There is never another result; the current result set closes unless {@code KEEP_CURRENT_RESULT}. */
    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current != KEEP_CURRENT_RESULT) {
            closeResultSet();
        }
        resultSet = null;
        updateCount = -1;
        return false;
    }

    /** The rows the last execution with generated keys returned; empty after any other. */
    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        if (keyRows.isEmpty() && keyColumns.isEmpty()) {
            return new MetadataTable().resultSet(this);
        }
        return new TellResultSet(this, keyColumns, new InMemoryResult(keyRows), 0);
    }

    /** Closes the current result set, without closing this statement on completion. */
    void closeResultSet() throws SQLException {
        TellResultSet rs = resultSet;
        resultSet = null;
        if (rs != null) {
            rs.close();
        }
    }

    /** Called by a result set of this statement when it closes. */
    void resultSetClosed(TellResultSet rs) throws SQLException {
        if (rs == resultSet) {
            resultSet = null;
            if (closeOnCompletion) {
                close();
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        connection.forget(this);
        batch.clear();
        closeResultSet();
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    final void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.closed("statement");
        }
    }

    @Override
    public void cancel() throws SQLException {
        checkOpen();
        connection.cancel();
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlExceptions.invalidArgument("max rows is negative: " + max);
        }
        maxRows = max;
    }

    @Override
    public int getMaxRows() throws SQLException {
        return clamp(getLargeMaxRows());
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw SqlExceptions.invalidArgument("query timeout is negative: " + seconds);
        }
        queryTimeout = seconds;
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return maxFieldSize;
    }

    /** Accepted and reported back; values are never truncated. */
    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw SqlExceptions.invalidArgument("max field size is negative: " + max);
        }
        maxFieldSize = max;
    }

    /** Accepted; Tell does not rewrite JDBC escapes, so SQL should not use them. */
    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw SqlExceptions.unsupported("positioned update (cursor names)");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw SqlExceptions.invalidArgument("a forward-only result set fetches forward only");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** A hint, accepted and reported back. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw SqlExceptions.invalidArgument("fetch size is negative: " + rows);
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }
}
