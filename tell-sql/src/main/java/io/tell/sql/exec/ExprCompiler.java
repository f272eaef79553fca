package io.tell.sql.exec;

import java.util.List;
import java.util.Map;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Compiles Calcite row expressions ({@link RexNode}) into {@link Expr} closure trees, once per
 * plan: the operator, the operand types, literal values and conversions are all decided here,
 * so evaluating a row makes one virtual call per node and no decision on the SQL kind. The value
 * of a compiled expression has the Java class of the node's type ({@link Values#javaClass}).
 *
 * <p>Operators: AND, OR, NOT, the IS tests, comparisons and IS [NOT] DISTINCT FROM, SEARCH
 * (IN lists and ranges), BETWEEN, {@code + - * /}, MOD, unary minus and plus, CASE, COALESCE, NULLIF, CAST,
 * LIKE, SIMILAR TO, {@code ||}, UPPER, LOWER, INITCAP, TRIM, SUBSTRING, OVERLAY, CHAR_LENGTH, OCTET_LENGTH,
 * POSITION, ABS, SIGN, FLOOR, CEIL, ROUND, TRUNCATE, POWER, SQRT, EXP, LN, LOG10, EXTRACT,
 * CURRENT_DATE, CURRENT_TIME, CURRENT_TIMESTAMP, LOCALTIME, LOCALTIMESTAMP, datetime ±
 * interval, NEXT VALUE FOR and nextval. Anything else fails here, at compile time, with FEATURE_NOT_SUPPORTED naming it.
 * Thread-safe; compiled expressions are immutable and may be shared by executions.
 */
public final class ExprCompiler {
    /** Compiles one call from its already compiled operands. */
    @FunctionalInterface
    private interface CallCompiler {
        Expr compile(RexCall call, List<Expr> operands);
    }

    /** Functions Calcite gives no distinctive kind, by operator instance (never by name). */
    private static final Map<SqlOperator, CallCompiler> FUNCTIONS = Map.ofEntries(
            Map.entry(SqlStdOperatorTable.CONCAT, (c, o) -> ByteFunctions.applies(c) ? ByteFunctions.concat(o)
                    : StringFunctions.concat(c, o)),
            Map.entry(SequenceFunctions.NEXTVAL, (c, o) -> SequenceFunctions.byName(o.get(0), true)),
            Map.entry(SequenceFunctions.CURRVAL, (c, o) -> SequenceFunctions.byName(o.get(0), false)),
            Map.entry(UuidFunctions.GEN_RANDOM_UUID, (c, o) -> UuidFunctions.random()),
            Map.entry(SqlStdOperatorTable.UPPER, (c, o) -> StringFunctions.upper(o.get(0))),
            Map.entry(SqlStdOperatorTable.LOWER, (c, o) -> StringFunctions.lower(o.get(0))),
            Map.entry(SqlStdOperatorTable.INITCAP, (c, o) -> StringFunctions.initcap(o.get(0))),
            Map.entry(SqlStdOperatorTable.SUBSTRING, (c, o) -> ByteFunctions.applies(c) ? ByteFunctions.substring(o)
                    : StringFunctions.substring(o)),
            Map.entry(SqlStdOperatorTable.OVERLAY, (c, o) -> StringFunctions.overlay(o)),
            Map.entry(SqlStdOperatorTable.CHAR_LENGTH, (c, o) -> ByteFunctions.applies(c) ? ByteFunctions.length(o.get(0))
                    : StringFunctions.charLength(o.get(0))),
            Map.entry(SqlStdOperatorTable.CHARACTER_LENGTH, (c, o) -> ByteFunctions.applies(c) ? ByteFunctions.length(o.get(0))
                    : StringFunctions.charLength(o.get(0))),
            Map.entry(SqlStdOperatorTable.OCTET_LENGTH, (c, o) -> ByteFunctions.length(o.get(0))),
            Map.entry(SqlStdOperatorTable.ASCII, (c, o) -> StringFunctions.ascii(o.get(0))),
            Map.entry(SqlStdOperatorTable.ABS, (c, o) -> MathFunctions.abs(c, o.get(0))),
            Map.entry(SqlStdOperatorTable.SIGN, (c, o) -> MathFunctions.sign(c, o.get(0))),
            Map.entry(SqlStdOperatorTable.ROUND, (c, o) -> MathFunctions.round(c, o, false)),
            Map.entry(SqlStdOperatorTable.TRUNCATE, (c, o) -> MathFunctions.round(c, o, true)),
            Map.entry(SqlStdOperatorTable.POWER, (c, o) -> MathFunctions.power(c, o.get(0), o.get(1))),
            Map.entry(SqlStdOperatorTable.SQRT, (c, o) -> MathFunctions.sqrt(c, o.get(0))),
            Map.entry(SqlStdOperatorTable.EXP, (c, o) -> MathFunctions.exp(c, o.get(0))),
            Map.entry(SqlStdOperatorTable.LN, (c, o) -> MathFunctions.log(c, o.get(0), false)),
            Map.entry(SqlStdOperatorTable.LOG10, (c, o) -> MathFunctions.log(c, o.get(0), true)),
            Map.entry(SqlStdOperatorTable.CURRENT_DATE, (c, o) -> DateFunctions.current(c)),
            Map.entry(SqlStdOperatorTable.CURRENT_TIME, (c, o) -> DateFunctions.current(c)),
            Map.entry(SqlStdOperatorTable.CURRENT_TIMESTAMP, (c, o) -> DateFunctions.current(c)),
            Map.entry(SqlStdOperatorTable.LOCALTIME, (c, o) -> DateFunctions.current(c)),
            Map.entry(SqlStdOperatorTable.LOCALTIMESTAMP, (c, o) -> DateFunctions.current(c)),
            Map.entry(PostgresFunctions.NOW, (c, o) -> DateFunctions.current(c)),
            Map.entry(PostgresFunctions.DATE_TRUNC, (c, o) -> PostgresFunctions.dateTrunc(o)),
            Map.entry(PostgresFunctions.ENCODE, (c, o) -> PostgresFunctions.encode(o)),
            Map.entry(PostgresFunctions.DECODE, (c, o) -> PostgresFunctions.decode(o)),
            Map.entry(SqlLibraryOperators.TO_CHAR_PG, ToChar::compile),
            Map.entry(SqlLibraryOperators.LENGTH, (c, o) -> ByteFunctions.applies(c) ? ByteFunctions.length(o.get(0))
                    : StringFunctions.charLength(o.get(0))),
            Map.entry(PostgresFunctions.GREATEST, (c, o) -> PostgresFunctions.extreme(c, o, true)),
            Map.entry(PostgresFunctions.LEAST, (c, o) -> PostgresFunctions.extreme(c, o, false)),
            Map.entry(SqlLibraryOperators.LEFT, (c, o) -> PostgresFunctions.side(o, true)),
            Map.entry(SqlLibraryOperators.RIGHT, (c, o) -> PostgresFunctions.side(o, false)),
            Map.entry(SqlLibraryOperators.REPEAT, (c, o) -> PostgresFunctions.repeat(o)),
            Map.entry(SqlLibraryOperators.REVERSE, (c, o) -> PostgresFunctions.reverse(o.get(0))),
            Map.entry(SqlLibraryOperators.LTRIM, (c, o) -> PostgresFunctions.trim(o.get(0), true)),
            Map.entry(SqlLibraryOperators.RTRIM, (c, o) -> PostgresFunctions.trim(o.get(0), false)),
            Map.entry(SqlLibraryOperators.STARTS_WITH, (c, o) -> PostgresFunctions.startsWith(o)),
            Map.entry(SqlLibraryOperators.CONCAT_FUNCTION, (c, o) -> PostgresFunctions.concat(c, o)),
            Map.entry(SqlLibraryOperators.SPLIT_PART, (c, o) -> PostgresFunctions.splitPart(o)),
            Map.entry(SqlLibraryOperators.MD5, (c, o) -> PostgresFunctions.md5(o.get(0))),
            // PG_3 and PG_4 are equal operators (one name, one kind): this entry serves both
            Map.entry(SqlLibraryOperators.REGEXP_REPLACE_PG_3, (c, o) -> PostgresFunctions.regexpReplace(o)));

    private ExprCompiler() {
    }

    /**
     * Compiles {@code node}.
     *
     * @throws io.tell.error.TellException FEATURE_NOT_SUPPORTED for an operator, function or
     *     type combination this compiler does not implement
     */
    public static Expr compile(RexNode node) {
        return switch (node) {
            case RexInputRef ref -> {
                int i = ref.getIndex();
                yield (row, ctx) -> row[i];
            }
            case RexLiteral literal -> Strict.constant(Literals.value(literal));
            case RexDynamicParam param -> {
                int i = param.getIndex();
                yield (row, ctx) -> ctx.param(i);
            }
            case RexFieldAccess access when access.getReferenceExpr() instanceof RexCorrelVariable variable -> {
                int id = variable.id.getId();
                int field = access.getField().getIndex();
                yield (row, ctx) -> ctx.correlated(id)[field];
            }
            case RexSubQuery subQuery -> throw ExecErrors.unsupported("subquery " + subQuery.getKind() + " in an expression");
            case RexOver over -> throw ExecErrors.unsupported("window function " + over.getOperator().getName());
            case RexCall call -> call(call);
            default -> throw ExecErrors.unsupported("expression " + node.getKind() + " (" + node + ")");
        };
    }

    /** Compiles {@code node}, a boolean expression, into a test that is true only for TRUE. */
    public static Condition compileCondition(RexNode node) {
        if (node instanceof RexCall call && (call.getKind() == SqlKind.AND || call.getKind() == SqlKind.OR)) {
            // At the top, AND is TRUE only if every operand is, OR if any is: UNKNOWN can be dropped early.
            Condition[] parts = call.getOperands().stream().map(ExprCompiler::compileCondition).toArray(Condition[]::new);
            if (call.getKind() == SqlKind.AND) {
                return (row, ctx) -> {
                    for (Condition c : parts) {
                        if (!c.test(row, ctx)) {
                            return false;
                        }
                    }
                    return true;
                };
            }
            return (row, ctx) -> {
                for (Condition c : parts) {
                    if (c.test(row, ctx)) {
                        return true;
                    }
                }
                return false;
            };
        }
        Expr e = compile(node);
        return (row, ctx) -> Boolean.TRUE.equals(e.eval(row, ctx));
    }

    private static Expr call(RexCall call) {
        List<Expr> ops = call.getOperands().stream().map(ExprCompiler::compile).toList();
        SqlKind kind = call.getKind();
        return switch (kind) {
            case AND, OR, NOT, IS_NULL, IS_NOT_NULL, IS_UNKNOWN, IS_TRUE, IS_NOT_TRUE, IS_FALSE,
                 IS_NOT_FALSE -> Logic.compile(kind, ops);
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL,
                 IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> Comparisons.compile(call, ops.get(0), ops.get(1));
            case PLUS, MINUS, CHECKED_PLUS, CHECKED_MINUS -> {
                Expr datetime = DateFunctions.arithmetic(call, ops.get(0), ops.get(1),
                        kind == SqlKind.MINUS || kind == SqlKind.CHECKED_MINUS);
                yield datetime != null ? datetime : Arithmetic.binary(call, ops.get(0), ops.get(1));
            }
            case TIMES, DIVIDE, MOD, CHECKED_TIMES, CHECKED_DIVIDE -> Arithmetic.binary(call, ops.get(0), ops.get(1));
            case MINUS_PREFIX, CHECKED_MINUS_PREFIX -> Arithmetic.negate(call, ops.get(0));
            case PLUS_PREFIX -> Casts.compile(ops.get(0), call.getOperands().get(0).getType(), call.getType());
            case CASE -> Conditionals.caseWhen(call, ops);
            case COALESCE -> Conditionals.coalesce(call, ops);
            case NULLIF -> Conditionals.nullIf(call, ops);
            case CAST -> Casts.compile(ops.get(0), call.getOperands().get(0).getType(), call.getType());
            case SEARCH -> Searches.search(call, ops.get(0));
            case BETWEEN -> Searches.between(call, ops);
            case LIKE -> Patterns.like(call, ops);
            case SIMILAR -> Patterns.similar(call, ops);
            case TRIM -> StringFunctions.trim(call, ops);
            case POSITION -> ByteFunctions.applies(call) ? ByteFunctions.position(ops) : StringFunctions.position(ops);
            case FLOOR, CEIL -> ops.size() == 2
                    ? DateFunctions.floor(call, ops, kind == SqlKind.CEIL)
                    : MathFunctions.floor(call, ops.get(0), kind == SqlKind.CEIL);
            case EXTRACT -> DateFunctions.extract(call, ops);
            case NEXT_VALUE -> SequenceFunctions.sequenceValue(call, true);
            case CURRENT_VALUE -> SequenceFunctions.sequenceValue(call, false);
            default -> {
                CallCompiler f = FUNCTIONS.get(call.getOperator());
                if (f == null) {
                    throw ExecErrors.unsupported("operator " + call.getOperator().getName());
                }
                yield f.compile(call, ops);
            }
        };
    }
}
