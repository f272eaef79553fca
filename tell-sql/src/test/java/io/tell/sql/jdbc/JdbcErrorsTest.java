package io.tell.sql.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.SqlStates;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import org.junit.jupiter.api.Test;

class JdbcErrorsTest {
    private static SQLException mapped(ErrorCode code) {
        return SqlExceptions.of(TellException.of(code, "what went wrong"));
    }

    @Test
    void everyCodeKeepsItsStateMessageAndCause() {
        for (ErrorCode code : ErrorCode.values()) {
            TellException cause = TellException.of(code, "failure " + code);
            SQLException e = SqlExceptions.of(cause);
            assertEquals(SqlStates.of(code), e.getSQLState(), code.name());
            assertEquals("failure " + code, e.getMessage());
            assertEquals(0, e.getErrorCode());
            assertSame(cause, e.getCause());
        }
    }

    @Test
    void subclassFollowsTheStateClass() {
        assertInstanceOf(SQLTransactionRollbackException.class, mapped(ErrorCode.TX_CONFLICT));
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, mapped(ErrorCode.DUPLICATE_KEY));
        assertInstanceOf(SQLIntegrityConstraintViolationException.class, mapped(ErrorCode.NOT_NULL_VIOLATION));
        assertInstanceOf(SQLSyntaxErrorException.class, mapped(ErrorCode.SQL_SYNTAX));
        assertInstanceOf(SQLSyntaxErrorException.class, mapped(ErrorCode.SQL_INVALID));
        assertInstanceOf(SQLSyntaxErrorException.class, mapped(ErrorCode.UNDEFINED_OBJECT));
        assertInstanceOf(SQLDataException.class, mapped(ErrorCode.STRING_TOO_LONG));
        assertInstanceOf(SQLDataException.class, mapped(ErrorCode.VALUE_OUT_OF_RANGE));
        assertInstanceOf(SQLDataException.class, mapped(ErrorCode.DIVISION_BY_ZERO));
        assertInstanceOf(SQLFeatureNotSupportedException.class, mapped(ErrorCode.FEATURE_NOT_SUPPORTED));
        assertInstanceOf(SQLTimeoutException.class, mapped(ErrorCode.TIMEOUT));
    }

    @Test
    void connectionFailuresAreTransientWhenRetrying() {
        assertInstanceOf(SQLTransientConnectionException.class, mapped(ErrorCode.STORE_UNAVAILABLE));
        assertInstanceOf(SQLTransientConnectionException.class, mapped(ErrorCode.CM_UNAVAILABLE));
        assertInstanceOf(SQLNonTransientConnectionException.class, mapped(ErrorCode.PROTOCOL_ERROR));
    }

    @Test
    void aCommitOfUnknownOutcomeIsNotReportedAsARollback() {
        SQLException e = mapped(ErrorCode.TX_COMMIT_PENDING);
        assertEquals("40003", e.getSQLState());
        assertFalse(e instanceof SQLTransientException, "retrying could apply the commit twice");
    }

    @Test
    void otherClassesArePlainSqlExceptions() {
        for (ErrorCode code : new ErrorCode[] {ErrorCode.CANCELLED, ErrorCode.READ_ONLY, ErrorCode.TX_STATE,
                ErrorCode.INTERNAL, ErrorCode.CORRUPT_DATA}) {
            assertEquals(SQLException.class, mapped(code).getClass(), code.name());
        }
    }

    @Test
    void driverStatesUseTheSameRules() {
        assertInstanceOf(SQLDataException.class, SqlExceptions.of(SqlExceptions.CANNOT_CONVERT, "x"));
        assertInstanceOf(SQLSyntaxErrorException.class, SqlExceptions.of(SqlExceptions.UNDEFINED_COLUMN, "x"));
        SQLException closed = SqlExceptions.closed("connection");
        assertInstanceOf(SQLNonTransientConnectionException.class, closed);
        assertEquals("08003", closed.getSQLState());
        assertEquals("HY010", SqlExceptions.closed("statement").getSQLState());
        assertEquals("the statement is closed", SqlExceptions.closed("statement").getMessage());
    }

    @Test
    void nonTellFailuresAreWrapped() {
        SQLException unsupported = SqlExceptions.of(new UnsupportedOperationException("not yet"));
        assertInstanceOf(SQLFeatureNotSupportedException.class, unsupported);
        assertEquals("0A000", unsupported.getSQLState());
        IllegalStateException bug = new IllegalStateException("bug");
        SQLException internal = SqlExceptions.of(bug);
        assertEquals("XX000", internal.getSQLState());
        assertSame(bug, internal.getCause());
    }
}
