package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;

/** The errors expression evaluation raises, worded once. */
final class ExecErrors {
    private ExecErrors() {
    }

    /** An operator, function or type combination the compiler does not implement (at compile time). */
    static TellException unsupported(String what) {
        return TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, what + " is not supported");
    }

    static TellException outOfRange(Object value, Object type) {
        return TellException.of(ErrorCode.VALUE_OUT_OF_RANGE, "value " + value + " is out of range for " + type);
    }

    static TellException overflow(String type) {
        return TellException.of(ErrorCode.VALUE_OUT_OF_RANGE, type + " out of range");
    }

    static TellException divisionByZero() {
        return TellException.of(ErrorCode.DIVISION_BY_ZERO, "division by zero");
    }

    static TellException data(String message) {
        return TellException.of(ErrorCode.DATA_EXCEPTION, message);
    }

    static TellException badText(String value, Object type) {
        return TellException.of(ErrorCode.DATA_EXCEPTION, "invalid " + type + " value: '" + value + "'");
    }
}
