package io.tell.sql.exec;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;

/**
 * {@code NEXT VALUE FOR s} (the standard's form, Calcite's NEXT_VALUE) and PostgreSQL's
 * {@code nextval('s')}: the next value of a sequence, drawn from the node's cached range.
 * Neither is deterministic: every evaluation takes a new value.
 */
public final class SequenceFunctions {
    /** {@code nextval(text)}: the name as PostgreSQL reads it, unquoted names folded (to upper case here). */
    public static final SqlFunction NEXTVAL = new SqlFunction("NEXTVAL", SqlKind.OTHER_FUNCTION,
            ReturnTypes.BIGINT, null, OperandTypes.STRING, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    /** {@code currval(text)}: the value this session's last nextval of the sequence gave. */
    public static final SqlFunction CURRVAL = new SqlFunction("CURRVAL", SqlKind.OTHER_FUNCTION,
            ReturnTypes.BIGINT, null, OperandTypes.STRING, SqlFunctionCategory.SYSTEM) {
        @Override
        public boolean isDeterministic() {
            return false;
        }
    };

    private SequenceFunctions() {
    }

    /**
     * NEXT VALUE FOR ({@code next}) or CURRENT VALUE FOR: the sequence is named by a literal the
     * validator resolved (its parts quoted, dot-separated).
     */
    static Expr sequenceValue(RexCall call, boolean next) {
        if (!(call.getOperands().get(0) instanceof RexLiteral literal)) {
            throw ExecErrors.unsupported(call.getOperator().getName() + " over " + call.getOperands().get(0));
        }
        String name = resolve(literal.getValueAs(String.class), false);
        return next ? (row, ctx) -> ctx.nextValue(name) : (row, ctx) -> ctx.currentValue(name);
    }

    /** nextval(text) or currval(text): the name is read per evaluation, as PostgreSQL reads it (unquoted parts fold). */
    static Expr byName(Expr name, boolean next) {
        return (row, ctx) -> {
            Object text = name.eval(row, ctx);
            if (text == null) {
                return null;
            }
            String sequence = resolve(text.toString().trim(), true);
            return next ? ctx.nextValue(sequence) : ctx.currentValue(sequence);
        };
    }

    /**
     * The sequence's name in {@code text} as written ({@code name}, {@code "Name"}, either qualified by a schema),
     * unquoted parts upper-cased when {@code fold}; the session finds it along its schema path.
     */
    private static String resolve(String text, boolean fold) {
        String name = io.tell.sql.Names.written(text, fold);
        if (name == null) {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "sequence " + text + " does not exist");
        }
        return name;
    }
}
