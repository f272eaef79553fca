package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * One INSERT statement fed in batches: the caller sets the parameters of a row on
 * {@link #statement()} and calls {@link #add()}; every {@code batchSize} rows the batch is
 * executed and the connection committed, so a load never holds one huge transaction.
 */
final class BatchInsert implements AutoCloseable {
    private final Connection connection;
    private final PreparedStatement statement;
    private final int batchSize;
    private final LoadProgress progress;
    private int pending;

    BatchInsert(Connection connection, String sql, int batchSize, LoadProgress progress) throws SQLException {
        this.connection = connection;
        this.statement = connection.prepareStatement(sql);
        this.batchSize = batchSize;
        this.progress = progress;
    }

    PreparedStatement statement() {
        return statement;
    }

    void add() throws SQLException {
        statement.addBatch();
        if (++pending >= batchSize) {
            flush();
        }
    }

    void flush() throws SQLException {
        if (pending > 0) {
            statement.executeBatch();
            connection.commit();
            progress.add(pending);
            pending = 0;
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            flush();
        } finally {
            statement.close();
        }
    }
}
