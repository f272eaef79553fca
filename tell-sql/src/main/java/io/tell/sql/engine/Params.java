package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ColumnType;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;

/** Converts bound parameter values to their inferred SQL types, exactly or with a clear error. */
final class Params {
    private Params() {
    }

    static Object[] coerce(List<?> values, List<RelDataType> types) {
        if (values.size() != types.size()) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "the statement has " + types.size() + " parameters, "
                    + values.size() + " were given");
        }
        Object[] out = new Object[values.size()];
        for (int i = 0; i < out.length; i++) {
            try {
                out[i] = coerce(values.get(i), types.get(i));
            } catch (TellException e) {
                throw TellException.of(e.code(), "parameter " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    static Object coerce(Object v, RelDataType type) {
        if (v == null) {
            return null;
        }
        return switch (type.getSqlTypeName()) {
            case TINYINT -> (byte) (short) ColumnType.SMALLINT.coerce(v);
            case SMALLINT -> ColumnType.SMALLINT.coerce(v);
            case INTEGER -> ColumnType.INTEGER.coerce(v);
            case BIGINT -> ColumnType.BIGINT.coerce(v);
            case DECIMAL -> decimal(v);
            case REAL -> ColumnType.REAL.coerce(v);
            case FLOAT, DOUBLE -> ColumnType.DOUBLE.coerce(v);
            case CHAR, VARCHAR -> ColumnType.varchar(ColumnType.MAX_LENGTH).coerce(v);
            case BOOLEAN -> ColumnType.BOOLEAN.coerce(v);
            case DATE -> ColumnType.DATE.coerce(v instanceof String s ? parse(s, java.time.LocalDate::parse) : v);
            case TIMESTAMP -> ColumnType.TIMESTAMP.coerce(v instanceof String s
                    ? parse(s.replace(' ', 'T'), java.time.LocalDateTime::parse) : v);
            default -> v;
        };
    }

    private static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Number n) {
            return n instanceof Double || n instanceof Float ? BigDecimal.valueOf(n.doubleValue())
                    : BigDecimal.valueOf(n.longValue());
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw TellException.of(ErrorCode.TYPE_MISMATCH, "'" + s + "' is not a number");
            }
        }
        throw TellException.of(ErrorCode.TYPE_MISMATCH, v.getClass().getSimpleName() + " is not a number");
    }

    private static Object parse(String s, java.util.function.Function<String, Object> parser) {
        try {
            return parser.apply(s.trim());
        } catch (java.time.format.DateTimeParseException e) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "'" + s + "' is not a valid date or timestamp");
        }
    }
}
