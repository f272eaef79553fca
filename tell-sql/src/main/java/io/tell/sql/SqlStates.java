package io.tell.sql;

import io.tell.error.ErrorCode;

/**
 * The one place where Tell error codes become SQLStates (the JDBC driver will use it for every
 * {@code SQLException}). The switch has no default, so a new code does not compile until it
 * has a state here.
 */
public final class SqlStates {
    private SqlStates() {
    }

    public static String of(ErrorCode code) {
        return switch (code) {
            case STORE_UNAVAILABLE, STORE_TIMEOUT -> "08006";      // connection failure
            case CM_UNAVAILABLE -> "08001";                         // unable to establish connection
            case PROTOCOL_ERROR -> "08P01";                         // protocol violation
            case AUTH_FAILED -> "28000";                            // invalid authorization specification
            case TX_CONFLICT, TX_FENCED -> "40001";                 // serialization failure
            case TX_COMMIT_PENDING -> "40003";                      // statement completion unknown
            case TX_OUTCOME_UNKNOWN -> "08007";                     // transaction resolution unknown
            case DUPLICATE_KEY -> "23505";                          // unique violation
            case NOT_NULL_VIOLATION -> "23502";                     // not-null violation
            case VALUE_OUT_OF_RANGE -> "22003";                     // numeric value out of range
            case STRING_TOO_LONG -> "22001";                        // string data, right truncation
            case KEY_TOO_LONG -> "54000";                           // program limit exceeded
            case TYPE_MISMATCH -> "42804";                          // datatype mismatch
            case INVALID_DEFINITION -> "42000";                     // syntax error or access rule violation
            case DUPLICATE_OBJECT -> "42P07";                       // duplicate table / index
            case UNDEFINED_OBJECT -> "42P01";                       // undefined table / index
            case INVALID_SCHEMA_NAME -> "3F000";
            case SQL_SYNTAX -> "42601";                             // syntax error
            case SQL_INVALID -> "42000";                            // syntax error or access rule violation
            case DATA_EXCEPTION -> "22018";                         // invalid character value for cast
            case DIVISION_BY_ZERO -> "22012";                       // division by zero
            case CARDINALITY_VIOLATION -> "21000";                  // cardinality violation
            case FOREIGN_KEY_VIOLATION -> "23503";                  // foreign key violation
            case CHECK_VIOLATION -> "23514";                        // check violation
            case GENERATED_ALWAYS -> "428C9";                       // generated always
            case OBJECT_NOT_IN_STATE -> "55000";                    // object not in prerequisite state
            case SEQUENCE_EXHAUSTED -> "2200H";                     // sequence generator limit exceeded
            case DEPENDENT_OBJECTS -> "2BP01";                      // dependent objects still exist
            case FEATURE_NOT_SUPPORTED -> "0A000";                  // feature not supported
            case READ_ONLY -> "25006";                              // read-only SQL transaction
            case CANCELLED, TIMEOUT -> "57014";                     // query canceled
            case TX_STATE -> "25000";                               // invalid transaction state
            case NO_SUCH_SAVEPOINT -> "3B001";                      // invalid savepoint specification
            case BAD_CONFIGURATION -> "22023";                      // invalid parameter value
            case CORRUPT_DATA -> "XX001";                           // data corrupted
            case STORE_FAILURE, INTERNAL -> "XX000";                // internal error
        };
    }
}
