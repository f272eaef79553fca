package io.tell.error;

/**
 * The central registry of Tell error codes. Each code says once whether a failure with it
 * may succeed when retried; the JDBC layer maps codes to SQLStates in one place
 * ({@code io.tell.sql.SqlStates}).
 */
public enum ErrorCode {
    /** The record store cannot be reached (connection refused or lost). */
    STORE_UNAVAILABLE(true),
    /** A store call did not answer in time; its effect is unknown. */
    STORE_TIMEOUT(true),
    /** The store answered with an error that retrying will not fix. */
    STORE_FAILURE(false),
    /** No commit manager can be reached. */
    CM_UNAVAILABLE(true),
    /**
     * A peer refused our credentials (a wrong Redis password or ACL user, a wrong or missing
     * cluster secret), or could not prove it holds the cluster secret itself. Retrying with
     * the same configuration cannot help.
     */
    AUTH_FAILED(false),
    /** A peer sent bytes that do not follow the protocol. */
    PROTOCOL_ERROR(false),
    /** Snapshot isolation refused the transaction: a write-write conflict (first committer wins). */
    TX_CONFLICT(true),
    /**
     * The transaction was taken over by recovery (its processing node's lease expired, or its
     * commit manager died) and is aborted; nothing it wrote stays. Retrying runs it anew.
     */
    TX_FENCED(true),
    /** An insert met a live row with the same key. */
    DUPLICATE_KEY(false),
    /**
     * The commit is applied in the store but the commit manager did not acknowledge it in
     * time; it becomes visible once the commit manager is reachable. Do not retry it.
     */
    TX_COMMIT_PENDING(false),
    /**
     * A commit's last batch, which carried its decision, went unanswered, and so did the check
     * after it: it may have committed or not. The node settles it in the background once the
     * store answers (committed, or reverted and aborted). Do not retry it blindly.
     */
    TX_OUTCOME_UNKNOWN(false),
    /** SQL text that does not parse. */
    SQL_SYNTAX(false),
    /** SQL that parses but does not validate: unknown table or column, wrong types, … */
    SQL_INVALID(false),
    /** The transaction was used after it ended or in a way the API forbids. */
    TX_STATE(false),
    /** A ROLLBACK TO or RELEASE named a savepoint the transaction does not have. */
    NO_SUCH_SAVEPOINT(false),
    /** A URL, option or argument is malformed. */
    BAD_CONFIGURATION(false),
    /** Stored bytes do not decode: a bug or foreign data. */
    CORRUPT_DATA(false),
    /** A NULL was given for a column declared NOT NULL. */
    NOT_NULL_VIOLATION(false),
    /** A value does not fit its column's type: out of range, or too many digits. */
    VALUE_OUT_OF_RANGE(false),
    /** A string is longer than its column allows. */
    STRING_TOO_LONG(false),
    /** A value is of a kind its column's type cannot take, e.g. a string for an INTEGER. */
    TYPE_MISMATCH(false),
    /**
     * A row's key in an index (the encoded values of the index's columns) is longer than an
     * index key may be; refused before anything is written.
     */
    KEY_TOO_LONG(false),
    /** A table, index or column definition is invalid. */
    INVALID_DEFINITION(false),
    /** A table or index of that name already exists. */
    DUPLICATE_OBJECT(false),
    /** No table or index of that name exists. */
    UNDEFINED_OBJECT(false),
    /** A schema that does not exist, or none to create an object in. */
    INVALID_SCHEMA_NAME(false),
    /** A value is invalid for an operation: division by zero, a string that is not a number, … */
    DATA_EXCEPTION(false),
    /** Division by zero. */
    DIVISION_BY_ZERO(false),
    /** More rows than a construct allows: a scalar subquery's, or an upsert changing one row twice. */
    CARDINALITY_VIOLATION(false),
    /** A row a CHECK constraint finds FALSE. */
    CHECK_VIOLATION(false),
    /** A row names a parent key that the referenced table does not hold (a foreign key). */
    FOREIGN_KEY_VIOLATION(false),
    /** A value was given for a column GENERATED ALWAYS AS IDENTITY. */
    GENERATED_ALWAYS(false),
    /** An object is not in the state the operation needs (currval before nextval in a session). */
    OBJECT_NOT_IN_STATE(false),
    /** A sequence reached its MAXVALUE (or MINVALUE, counting down). */
    SEQUENCE_EXHAUSTED(false),
    /** An object cannot be dropped while others depend on it (a sequence a column's DEFAULT uses). */
    DEPENDENT_OBJECTS(false),
    /** A SQL feature Tell does not implement. */
    FEATURE_NOT_SUPPORTED(false),
    /** A write in a read-only transaction. */
    READ_ONLY(false),
    /** The statement was cancelled. */
    CANCELLED(false),
    /** The statement ran longer than its timeout. */
    TIMEOUT(false),
    /** Anything else: a bug. */
    INTERNAL(false);

    private final boolean retriable;

    ErrorCode(boolean retriable) {
        this.retriable = retriable;
    }

    public boolean retriable() {
        return retriable;
    }
}
