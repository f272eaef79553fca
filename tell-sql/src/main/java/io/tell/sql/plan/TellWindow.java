package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.exec.Accumulator;
import io.tell.sql.exec.AggregateCompiler;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.ExprCompiler;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * Window functions ({@code OVER (PARTITION BY … ORDER BY …)}): ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK,
 * CUME_DIST, NTILE, LAG, LEAD, FIRST_VALUE, LAST_VALUE, NTH_VALUE, and the
 * aggregates Tell has (COUNT, SUM, AVG, MIN, MAX, …) over the whole partition or, with ORDER BY, from its
 * start to the current row (RANGE: the current row's peers included, as SQL's default frame; or ROWS).
 * The input is read completely; each window group sorts the rows by its partition and order keys and
 * computes its values partition by partition; rows come out in the input's order with the values appended.
 * Other frames and window functions fail when the statement is prepared (0A000).
 * LAG, LEAD and NTILE look at the partition's rows in window order whatever the frame.
 */
public final class TellWindow extends Window implements TellRel {
    public TellWindow(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<RexLiteral> constants,
                      RelDataType rowType, List<Group> groups) {
        super(cluster, traits, input, constants, rowType, groups);
    }

    @Override
    public Window copy(List<RexLiteral> constants) {
        return new TellWindow(getCluster(), traitSet, input, constants, rowType, groups);
    }

    @Override
    public RelNode copy(RelTraitSet traits, List<RelNode> inputs) {
        return new TellWindow(getCluster(), traits, sole(inputs), constants, rowType, groups);
    }

    /**
     * One window function: its place in the output row, how it is computed within a partition (an accumulator for
     * the aggregates), and its argument columns (of the input row extended by the constants).
     */
    private record Function(int output, SqlKind kind, Supplier<Accumulator> accumulator, List<Integer> args) {
    }

    private record Compiled(Group group, Comparator<Object[]> partition, Comparator<Object[]> order, List<Function> functions,
                            boolean wholePartition) {
    }

    @Override
    public ExecNode implement(Implementor impl) {
        ExecNode in = impl.visit(getInput());
        int inputWidth = getInput().getRowType().getFieldCount();
        Object[] constantValues = constants.stream().map(c -> ExprCompiler.compile(c).eval(null, null)).toArray();
        RelDataType extended = extendedRowType();
        List<Compiled> compiled = new ArrayList<>();
        int extendedWidth = inputWidth + constantValues.length;
        int output = extendedWidth; // rows are worked on as input, constants, window values
        for (Group g : groups) {
            List<AggregateCall> calls = g.getAggregateCalls(this);
            List<Function> functions = new ArrayList<>();
            for (AggregateCall call : calls) {
                SqlKind kind = call.getAggregation().getKind();
                Supplier<Accumulator> acc = switch (kind) {
                    case ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST, LAG, LEAD, FIRST_VALUE, LAST_VALUE,
                         NTH_VALUE, NTILE -> null;
                    default -> AggregateCompiler.compile(call, extended);
                };
                functions.add(new Function(output++, kind, acc, call.getArgList()));
            }
            List<RelFieldCollation> partition = g.keys.toList().stream().map(RelFieldCollation::new).toList();
            Comparator<Object[]> byPartition = partition.isEmpty() ? (a, b) -> 0 : Rows.order(partition);
            compiled.add(new Compiled(g, byPartition, Rows.order(g.orderKeys.getFieldCollations()), functions, frame(g)));
        }
        int width = output;
        return ctx -> {
            List<Object[]> rows = new ArrayList<>();
            Cursor c = in.open(ctx);
            for (Object[] r = c.next(); r != null; r = c.next()) {
                ctx.check();
                Object[] row = Arrays.copyOf(r, width);
                System.arraycopy(constantValues, 0, row, inputWidth, constantValues.length);
                rows.add(row);
            }
            for (Compiled w : compiled) {
                compute(w, rows);
            }
            List<Object[]> out = new ArrayList<>(rows.size());
            for (Object[] row : rows) { // the input's columns, then the window values
                Object[] o = Arrays.copyOf(row, width - constantValues.length);
                System.arraycopy(row, extendedWidth, o, inputWidth, width - extendedWidth);
                out.add(o);
            }
            return Cursor.of(out);
        };
    }

    /**
     * The input row type followed by the constants: what the window functions' arguments index (Calcite numbers
     * constants after the input's fields).
     */
    private RelDataType extendedRowType() {
        RelDataTypeFactory.Builder b = getCluster().getTypeFactory().builder();
        b.addAll(getInput().getRowType().getFieldList());
        for (int i = 0; i < constants.size(); i++) {
            b.add("$c" + i, constants.get(i).getType());
        }
        return b.build();
    }

    /** True for a frame over the whole partition, false from its start to the current row (and peers for RANGE). */
    private static boolean frame(Group g) {
        if (!g.lowerBound.isUnboundedPreceding()) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "window frames that do not start at UNBOUNDED PRECEDING are not supported");
        }
        if (g.upperBound.isUnboundedFollowing()) {
            return true;
        }
        if (!g.upperBound.isCurrentRow()) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "window frames that end other than at CURRENT ROW or UNBOUNDED FOLLOWING are not supported");
        }
        return g.orderKeys.getFieldCollations().isEmpty();
    }

    private void compute(Compiled w, List<Object[]> rows) {
        Integer[] order = new Integer[rows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Comparator<Object[]> sort = w.order() == null ? w.partition() : w.partition().thenComparing(w.order());
        Arrays.sort(order, (a, b) -> sort.compare(rows.get(a), rows.get(b)));
        int start = 0;
        while (start < order.length) {
            int end = start + 1;
            while (end < order.length && w.partition().compare(rows.get(order[start]), rows.get(order[end])) == 0) {
                end++;
            }
            partition(w, rows, Arrays.asList(order).subList(start, end));
            start = end;
        }
    }

    /** The window values of one partition's rows, given in window order. */
    private static void partition(Compiled w, List<Object[]> rows, List<Integer> part) {
        List<Accumulator> accs = new ArrayList<>();
        for (Function f : w.functions()) {
            accs.add(f.accumulator() == null ? null : f.accumulator().get());
        }
        if (w.wholePartition()) {
            for (int i : part) {
                add(accs, rows.get(i));
            }
        }
        boolean rowsFrame = w.group().isRows;
        long rank = 0;
        long dense = 0;
        int peersEnd = 0;
        int peerGroupEnd = 0;
        for (int at = 0; at < part.size(); at++) {
            Object[] row = rows.get(part.get(at));
            boolean newPeerGroup = at == 0 || w.order() != null && w.order().compare(rows.get(part.get(at - 1)), row) != 0;
            if (newPeerGroup) {
                rank = at + 1;
                dense++;
                peerGroupEnd = at + 1;
                while (peerGroupEnd < part.size() && w.order() != null
                        && w.order().compare(rows.get(part.get(peerGroupEnd)), row) == 0) {
                    peerGroupEnd++;
                }
                if (w.order() == null) {
                    peerGroupEnd = part.size();
                }
            }
            if (!w.wholePartition()) {
                if (rowsFrame) {
                    add(accs, row);
                } else if (at >= peersEnd) { // RANGE: the current row's peers are in its frame too
                    peersEnd = at;
                    while (peersEnd < part.size() && (w.order() == null
                            || w.order().compare(rows.get(part.get(peersEnd)), row) == 0)) {
                        add(accs, rows.get(part.get(peersEnd)));
                        peersEnd++;
                    }
                }
            }
            int frameEnd = w.wholePartition() ? part.size() : rowsFrame ? at + 1 : peersEnd;
            for (int f = 0; f < w.functions().size(); f++) {
                Function fn = w.functions().get(f);
                row[fn.output()] = switch (fn.kind()) {
                    case ROW_NUMBER -> (long) at + 1;
                    case RANK -> rank;
                    case DENSE_RANK -> dense;
                    case PERCENT_RANK -> part.size() == 1 ? 0.0 : (double) (rank - 1) / (part.size() - 1);
                    case CUME_DIST -> (double) peerGroupEnd / part.size();
                    case NTH_VALUE -> {
                        int n = ((Number) row[fn.args().get(1)]).intValue();
                        if (n <= 0) {
                            throw TellException.of(ErrorCode.DATA_EXCEPTION, "argument of nth_value must be greater than zero");
                        }
                        yield n <= frameEnd ? rows.get(part.get(n - 1))[fn.args().getFirst()] : null;
                    }
                    case LAG, LEAD -> shifted(fn, rows, part, at, fn.kind() == SqlKind.LAG);
                    case FIRST_VALUE -> rows.get(part.getFirst())[fn.args().getFirst()];
                    case LAST_VALUE -> rows.get(part.get(frameEnd - 1))[fn.args().getFirst()];
                    case NTILE -> ntile(((Number) row[fn.args().getFirst()]).intValue(), at, part.size());
                    default -> accs.get(f).result();
                };
            }
        }
    }

    /** LAG(value [, offset [, default]]) ({@code back}) or LEAD: the value {@code offset} rows before (after) in the partition. */
    private static Object shifted(Function fn, List<Object[]> rows, List<Integer> part, int at, boolean back) {
        Object[] row = rows.get(part.get(at));
        int offset = fn.args().size() > 1 ? ((Number) row[fn.args().get(1)]).intValue() : 1;
        int other = back ? at - offset : at + offset;
        if (other < 0 || other >= part.size()) {
            return fn.args().size() > 2 ? row[fn.args().get(2)] : null;
        }
        return rows.get(part.get(other))[fn.args().getFirst()];
    }

    /** NTILE(buckets): the bucket of the {@code at}-th of {@code size} rows, the first buckets one row larger. */
    private static Integer ntile(int buckets, int at, int size) {
        if (buckets <= 0) {
            throw TellException.of(ErrorCode.DATA_EXCEPTION, "argument of ntile must be greater than zero");
        }
        int small = size / buckets;
        int large = size % buckets; // buckets with small + 1 rows
        int inLarge = large * (small + 1);
        return at < inLarge ? at / (small + 1) + 1 : large + (at - inLarge) / Math.max(1, small) + 1;
    }

    private static void add(List<Accumulator> accs, Object[] row) {
        for (Accumulator a : accs) {
            if (a != null) {
                a.add(row);
            }
        }
    }
}
