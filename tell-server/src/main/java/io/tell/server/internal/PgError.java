package io.tell.server.internal;

/**
 * An error the protocol layer itself raises, with PostgreSQL's SQLState where Tell's error
 * codes have none (25P02, 26000, 34000, 42704, 22P04…). Errors from the engine stay
 * {@link io.tell.error.TellException}s and get their state from {@link io.tell.sql.SqlStates}.
 */
final class PgError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    PgError(String sqlState, String message) {
        super(message, null, false, false);
        this.sqlState = sqlState;
    }

    String sqlState() {
        return sqlState;
    }

    static PgError abortedTransaction() {
        return new PgError("25P02", "current transaction is aborted, commands ignored until end of transaction block");
    }
}
