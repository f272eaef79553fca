package io.tell.sql.jdbc;

import io.tell.sql.PreparedSql;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SchemaPath;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.txn.Isolation;
import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * A JDBC connection: one {@link SqlSession} on the {@link ProcessingNode} of its URL. The
 * session opens with the first statement (metadata needs only the node's catalog) and takes
 * the auto-commit, isolation and read-only settings made before it. Isolation: REPEATABLE_READ
 * is snapshot isolation (the default); SERIALIZABLE is serializable; READ_COMMITTED and
 * READ_UNCOMMITTED are upgraded to REPEATABLE_READ with a warning, as JDBC allows. Statements
 * are forward-only and read-only; their result sets close at commit and rollback.
 *
 * <p>Used by one thread at a time, except {@link Statement#cancel()} and {@link #abort}.
 */
public final class TellConnection extends TellWrapper implements Connection {
    private static final Set<String> CLIENT_INFO = Set.of("ApplicationName", "ClientUser", "ClientHostname");

    private final ProcessingNode node;
    private final LazySession session;
    private int savepoints;
    private final String url;
    private final String user;
    private final Set<TellStatement> statements = ConcurrentHashMap.newKeySet();
    private final Properties clientInfo = new Properties();
    private volatile boolean closed;
    private int networkTimeout;
    private SQLWarning warnings;

    TellConnection(ProcessingNode node, Supplier<SqlSession> sessions, String url, String user) {
        this.node = node;
        this.session = new LazySession(sessions);
        this.url = url;
        this.user = user;
    }

    /**
     * The processing node this connection runs on (shared by the connections to one URL), for
     * tools that read its round-trip counters: {@code connection.unwrap(TellConnection.class).node()}.
     */
    public ProcessingNode node() {
        return node;
    }

    String url() {
        return url;
    }

    String user() {
        return user;
    }

    /** The session, opened on first use with this connection's settings. */
    SqlSession session() throws SQLException {
        checkOpen();
        return session.get();
    }

    PreparedSql prepare(String sql) throws SQLException {
        if (sql == null) {
            throw SqlExceptions.invalidArgument("the SQL text is null");
        }
        SqlSession s = session();
        try {
            return s.prepare(sql);
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
    }

    /** {@code sql} prepared to return generated keys ({@link SqlSession#prepareReturning}). */
    PreparedSql prepareReturning(String sql, List<String> columns) throws SQLException {
        if (sql == null) {
            throw SqlExceptions.invalidArgument("the SQL text is null");
        }
        try {
            return session().prepareReturning(sql, columns);
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
    }

    void forget(TellStatement statement) {
        statements.remove(statement);
    }

    void cancel() throws SQLException {
        session.cancel();
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw SqlExceptions.closed("connection");
        }
    }

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return register(new TellStatement(this));
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency) throws SQLException {
        checkCursor(resultSetType, resultSetConcurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT);
        return createStatement();
    }

    @Override
    public Statement createStatement(int resultSetType, int resultSetConcurrency, int resultSetHoldability)
            throws SQLException {
        checkCursor(resultSetType, resultSetConcurrency, resultSetHoldability);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        return register(new TellPreparedStatement(this, prepare(sql)));
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency)
            throws SQLException {
        checkCursor(resultSetType, resultSetConcurrency, ResultSet.CLOSE_CURSORS_AT_COMMIT);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int resultSetType, int resultSetConcurrency,
                                              int resultSetHoldability) throws SQLException {
        checkCursor(resultSetType, resultSetConcurrency, resultSetHoldability);
        return prepareStatement(sql);
    }

    /**
     * With RETURN_GENERATED_KEYS an INSERT, UPDATE or DELETE returns the columns filled from a
     * sequence (identity, SERIAL), or all columns when the table has none, through
     * {@code getGeneratedKeys()}.
     */
    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        TellStatement.checkGeneratedKeys(autoGeneratedKeys);
        if (autoGeneratedKeys == Statement.NO_GENERATED_KEYS) {
            return prepareStatement(sql);
        }
        checkOpen();
        return register(new TellPreparedStatement(this, prepareReturning(sql, List.of()), true));
    }

    /** Refused, as PostgreSQL's driver refuses it: name the columns instead. */
    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        throw SqlExceptions.unsupported("generated keys by column index (name the columns instead)");
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        checkOpen();
        return register(new TellPreparedStatement(this, prepareReturning(sql, TellStatement.names(columnNames)), true));
    }

    @Override public CallableStatement prepareCall(String sql) throws SQLException { throw SqlExceptions.unsupported("CallableStatement (stored procedures)"); }
    @Override public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException { return prepareCall(sql); }
    @Override public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability) throws SQLException { return prepareCall(sql); }

    private <T extends TellStatement> T register(T statement) {
        statements.add(statement);
        return statement;
    }

    private void checkCursor(int type, int concurrency, int holdability) throws SQLException {
        checkOpen();
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            throw SqlExceptions.unsupported("a scrollable result set");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            throw SqlExceptions.unsupported("an updatable result set");
        }
        if (holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw SqlExceptions.unsupported("a result set held over commit");
        }
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        if (autoCommit && !session.autoCommit()) {
            closeCursors(); // switching auto-commit on commits
        }
        session.setAutoCommit(autoCommit);
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return session.autoCommit();
    }

    @Override
    public void commit() throws SQLException {
        checkTransaction("commit");
        closeCursors();
        session.commit();
    }

    @Override
    public void rollback() throws SQLException {
        checkTransaction("rollback");
        closeCursors();
        session.rollback();
    }

    private void checkTransaction(String what) throws SQLException {
        if (getAutoCommit()) {
            throw SqlExceptions.of(SqlExceptions.TRANSACTION_STATE, what + " is not allowed in auto-commit mode");
        }
    }

    private void closeCursors() throws SQLException {
        for (TellStatement statement : statements) {
            statement.closeResultSet();
        }
    }

    /** Rolls back an open transaction, closes the statements and releases the node; does nothing when closed. */
    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        SQLException failure = null;
        for (TellStatement statement : List.copyOf(statements)) {
            try {
                statement.close();
            } catch (SQLException e) {
                failure = chain(failure, e);
            }
        }
        try {
            session.close();
        } catch (SQLException e) {
            failure = chain(failure, e);
        } finally {
            try {
                node.close();
            } catch (RuntimeException e) {
                failure = chain(failure, SqlExceptions.of(e));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    private static SQLException chain(SQLException first, SQLException next) {
        if (first == null) {
            return next;
        }
        first.setNextException(next);
        return first;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw SqlExceptions.invalidArgument("abort needs an executor");
        }
        if (closed) {
            return;
        }
        cancel();
        executor.execute(() -> {
            try {
                close();
            } catch (SQLException e) {
                // abort reports nothing: the connection is unusable either way
            }
        });
    }

    /**
     * False when closed; otherwise runs {@code VALUES 1} through the session within
     * {@code timeout} seconds (0: none), leaving no transaction behind that was not open before.
     */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw SqlExceptions.invalidArgument("isValid timeout is negative: " + timeout);
        }
        if (closed) {
            return false;
        }
        try {
            SqlSession s = session();
            boolean inTransaction = s.inTransaction();
            try (SqlResult result = s.execute(s.prepare("VALUES 1"), List.of(), 0, timeout * 1000L)) {
                result.next();
            } finally {
                if (!inTransaction && s.inTransaction()) {
                    s.rollback();
                }
            }
            return true;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new TellDatabaseMetaData(this);
    }

    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        session.setReadOnly(readOnly);
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return session.readOnly();
    }

    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        Isolation target = switch (level) {
            case TRANSACTION_REPEATABLE_READ, TRANSACTION_READ_COMMITTED, TRANSACTION_READ_UNCOMMITTED -> Isolation.SNAPSHOT;
            case TRANSACTION_SERIALIZABLE -> Isolation.SERIALIZABLE;
            case TRANSACTION_NONE -> throw SqlExceptions.unsupported("TRANSACTION_NONE (working without transactions)");
            default -> throw SqlExceptions.invalidArgument("not a transaction isolation level: " + level);
        };
        session.setIsolation(target);
        if (level == TRANSACTION_READ_COMMITTED || level == TRANSACTION_READ_UNCOMMITTED) {
            addWarning(new SQLWarning((level == TRANSACTION_READ_COMMITTED ? "READ_COMMITTED" : "READ_UNCOMMITTED")
                    + " is upgraded to REPEATABLE_READ (snapshot isolation), Tell's weakest level", "01000"));
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        return session.isolation() == Isolation.SERIALIZABLE ? TRANSACTION_SERIALIZABLE : TRANSACTION_REPEATABLE_READ;
    }

    private void addWarning(SQLWarning warning) {
        if (warnings == null) {
            warnings = warning;
        } else {
            warnings.setNextWarning(warning);
        }
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

    /** Tell has no catalogs: ignored, as JDBC asks of drivers without them. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    /** The schema path of this connection's session (the driver's {@code currentSchema}), not checked against the catalog. */
    void useSchemaPath(SchemaPath path) {
        session.setSchemaPath(path);
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        try {
            if (schema == null || !node.catalog().snapshot().hasSchema(schema)) {
                throw SqlExceptions.of(SqlExceptions.INVALID_SCHEMA, "schema " + schema + " does not exist");
            }
        } catch (RuntimeException e) {
            throw SqlExceptions.of(e);
        }
        session.setSchemaPath(new SchemaPath(List.of(schema)));
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return session.schemaPath().schemas().getFirst();
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return Map.of();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw SqlExceptions.unsupported("a type map (user-defined types)");
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkCursor(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY, holdability);
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    /** An unnamed savepoint gets a name of this form with its id; a name given by the application is used as it is. */
    private static final String UNNAMED = "tell_savepoint_";

    @Override
    public Savepoint setSavepoint() throws SQLException {
        checkTransaction("setSavepoint");
        TellSavepoint sp = TellSavepoint.unnamed(++savepoints, UNNAMED + (savepoints));
        session.setSavepoint(sp.name());
        return sp;
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        checkTransaction("setSavepoint");
        if (name == null || name.isEmpty()) {
            throw SqlExceptions.invalidArgument("a savepoint's name must not be empty");
        }
        TellSavepoint sp = TellSavepoint.named(name);
        session.setSavepoint(sp.name());
        return sp;
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        checkTransaction("rollback");
        closeCursors();
        session.rollbackToSavepoint(TellSavepoint.nameOf(savepoint));
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        checkTransaction("releaseSavepoint");
        session.releaseSavepoint(TellSavepoint.nameOf(savepoint));
    }

    // No stored procedures or LOB, XML, array and structured types.
    @Override public Clob createClob() throws SQLException { throw SqlExceptions.unsupported("CLOB"); }
    @Override public Blob createBlob() throws SQLException { throw SqlExceptions.unsupported("BLOB"); }
    @Override public NClob createNClob() throws SQLException { throw SqlExceptions.unsupported("NCLOB"); }
    @Override public SQLXML createSQLXML() throws SQLException { throw SqlExceptions.unsupported("SQLXML"); }
    @Override public Array createArrayOf(String typeName, Object[] elements) throws SQLException { throw SqlExceptions.unsupported("ARRAY"); }
    @Override public Struct createStruct(String typeName, Object[] attributes) throws SQLException { throw SqlExceptions.unsupported("STRUCT"); }

    /** Kept for the client's information; a name other than ApplicationName, ClientUser, ClientHostname adds a warning. */
    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("the connection is closed", SqlExceptions.CONNECTION_CLOSED, 0,
                    Map.of(String.valueOf(name), ClientInfoStatus.REASON_UNKNOWN));
        }
        if (!CLIENT_INFO.contains(name)) {
            addWarning(new SQLWarning("unknown client info property " + name + " (kept, but Tell does not use it)", "01000"));
        }
        if (value == null) {
            clientInfo.remove(name);
        } else {
            clientInfo.setProperty(name, value);
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        for (String name : properties.stringPropertyNames()) {
            setClientInfo(name, properties.getProperty(name));
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        return clientInfo.getProperty(name);
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        Properties copy = new Properties();
        copy.putAll(clientInfo);
        return copy;
    }

    /** Accepted and reported back; statements are bounded by their query timeout. */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw SqlExceptions.invalidArgument("network timeout is negative: " + milliseconds);
        }
        networkTimeout = milliseconds;
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeout;
    }
}
