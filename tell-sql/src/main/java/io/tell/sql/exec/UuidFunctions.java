package io.tell.sql.exec;

import java.util.UUID;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlTypeName;

/** PostgreSQL's {@code gen_random_uuid()}: a random (version 4) UUID, a new one at every evaluation. */
public final class UuidFunctions {
    public static final SqlFunction GEN_RANDOM_UUID = new SqlFunction("GEN_RANDOM_UUID", SqlKind.OTHER_FUNCTION,
            ReturnTypes.explicit(SqlTypeName.UUID), null, OperandTypes.NILADIC, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    private UuidFunctions() {
    }

    static Expr random() {
        return (row, ctx) -> UUID.randomUUID();
    }
}
