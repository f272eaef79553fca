package io.tell.sql.jdbc;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.SqlStates;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * The one place where the driver makes {@link SQLException}s: from engine failures (SQLState
 * from {@link SqlStates}) and from its own checks, always with the subclass JDBC names for the
 * state's class, vendor code 0, and the cause chained.
 */
final class SqlExceptions {
    /** Connection does not exist: a closed connection was used. */
    static final String CONNECTION_CLOSED = "08003";
    /** Function sequence error: a closed statement or result set was used. */
    static final String OBJECT_CLOSED = "HY010";
    /** Invalid attribute value: an argument the method does not take. */
    static final String INVALID_ARGUMENT = "HY024";
    /** General error: a method JDBC forbids on this kind of object. */
    static final String NOT_ALLOWED = "HY000";
    /** Wrong number of parameters: a parameter was not set. */
    static final String PARAMETER_NOT_SET = "07001";
    /** Cursor specification cannot be executed: a query given to executeUpdate or a batch. */
    static final String QUERY_NOT_ALLOWED = "07003";
    /** Prepared statement not a cursor specification: a non-query given to executeQuery. */
    static final String NOT_A_QUERY = "07005";
    /** Invalid descriptor index: a column or parameter index out of range. */
    static final String BAD_INDEX = "07009";
    /** Invalid cursor state: no current row. */
    static final String NO_CURRENT_ROW = "24000";
    /** Invalid transaction state. */
    static final String TRANSACTION_STATE = "25000";
    /** Undefined column: a result set has no column of that label. */
    static final String UNDEFINED_COLUMN = "42703";
    /** Invalid schema name. */
    static final String INVALID_SCHEMA = "3F000";
    /** Invalid character value for cast: a value a getter or setter cannot convert. */
    static final String CANNOT_CONVERT = "22018";
    /** Numeric value out of range. */
    static final String OUT_OF_RANGE = "22003";
    /** Feature not supported. */
    static final String UNSUPPORTED = "0A000";
    /** Internal error. */
    static final String INTERNAL = "XX000";
    /** Statement completion unknown: the commit may have happened. */
    private static final String COMMIT_PENDING = "40003";

    private SqlExceptions() {
    }

    /** {@code e} from the engine (or the node) as the SQLException an application should see. */
    static SQLException of(RuntimeException e) {
        if (e instanceof TellException te) {
            return of(te);
        }
        if (e instanceof UnsupportedOperationException) {
            return new SQLFeatureNotSupportedException(e.getMessage(), UNSUPPORTED, 0, e);
        }
        return new SQLException("internal error: " + e, INTERNAL, 0, e);
    }

    static SQLException of(TellException e) {
        String state = SqlStates.of(e.code());
        if (e.code() == ErrorCode.TIMEOUT) {
            return new SQLTimeoutException(e.getMessage(), state, 0, e);
        }
        return of(state, e.getMessage(), e.retriable(), e);
    }

    /** A failure the driver itself detects. */
    static SQLException of(String state, String message) {
        return of(state, message, false, null);
    }

    /**
     * The subclass for {@code state}'s class; {@code retriable} picks the transient branch
     * where JDBC has one (connection failures).
     */
    static SQLException of(String state, String message, boolean retriable, Throwable cause) {
        if (state.equals(COMMIT_PENDING)) {
            // Class 40, but not a rollback: the commit may yet become visible, and a rollback
            // exception would invite a retry that applies the change twice.
            return new SQLNonTransientException(message, state, 0, cause);
        }
        return switch (state.substring(0, 2)) {
            case "40" -> new SQLTransactionRollbackException(message, state, 0, cause);
            case "23" -> new SQLIntegrityConstraintViolationException(message, state, 0, cause);
            case "42" -> new SQLSyntaxErrorException(message, state, 0, cause);
            case "22" -> new SQLDataException(message, state, 0, cause);
            case "0A" -> new SQLFeatureNotSupportedException(message, state, 0, cause);
            case "08" -> retriable
                    ? new SQLTransientConnectionException(message, state, 0, cause)
                    : new SQLNonTransientConnectionException(message, state, 0, cause);
            default -> new SQLException(message, state, 0, cause);
        };
    }

    static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by Tell", UNSUPPORTED);
    }

    static SQLException closed(String what) {
        return what.equals("connection")
                ? new SQLNonTransientConnectionException("the connection is closed", CONNECTION_CLOSED)
                : new SQLException("the " + what + " is closed", OBJECT_CLOSED);
    }

    static SQLException invalidArgument(String message) {
        return new SQLException(message, INVALID_ARGUMENT);
    }
}
