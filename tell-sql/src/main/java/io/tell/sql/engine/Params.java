package io.tell.sql.engine;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Values;
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
                out[i] = Values.coerce(values.get(i), types.get(i));
            } catch (TellException e) {
                throw TellException.of(e.code(), "parameter " + (i + 1) + ": " + e.getMessage(), e);
            }
        }
        return out;
    }
}
