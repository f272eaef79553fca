package io.tell.spike;

import io.tell.spike.TellRels.TellFilter;
import io.tell.spike.TellRels.TellHashAggregate;
import io.tell.spike.TellRels.TellIndexLookup;
import io.tell.spike.TellRels.TellProject;
import io.tell.spike.TellRels.TellTableScan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;

/**
 * Spike: an executor that walks the physical tree once ("implement") into closures, then runs
 * them per execution with the bound parameters. RexNodes are compiled into closure trees here
 * too, so no operator dispatch on SqlKind happens per row. Calcite's Enumerable/Janino is not used.
 */
final class Exec {
    private Exec() {
    }

    /** A row source built from a plan once and run any number of times. */
    interface Node {
        Iterable<Object[]> open(Object[] params);
    }

    /** One compiled scalar expression: (row, params) to value. */
    interface Expr {
        Object eval(Object[] row, Object[] params);
    }

    static Node implement(RelNode rel) {
        if (rel instanceof TellTableScan scan) {
            SpikeCatalog.SpikeTable t = scan.getTable().unwrap(SpikeCatalog.SpikeTable.class);
            return params -> t.rows();
        }
        if (rel instanceof TellIndexLookup lookup) {
            // Stand-in for tx.scanIndex(index, ScanRange.key(encode(keys)), n) + getAll(rids).
            SpikeCatalog.SpikeTable t = lookup.getTable().unwrap(SpikeCatalog.SpikeTable.class);
            List<Integer> cols = t.indexes().get(lookup.index);
            List<Expr> keys = lookup.keys.stream().map(Exec::compile).toList();
            return params -> t.rows().stream().filter(r -> {
                for (int i = 0; i < keys.size(); i++) {
                    if (!Objects.equals(r[cols.get(i)], keys.get(i).eval(null, params))) {
                        return false;
                    }
                }
                return true;
            }).toList();
        }
        if (rel instanceof TellFilter f) {
            Node in = implement(f.getInput());
            Expr cond = compile(f.getCondition());
            return params -> () -> iterate(in.open(params), r -> Boolean.TRUE.equals(cond.eval(r, params)) ? r : null);
        }
        if (rel instanceof TellProject p) {
            Node in = implement(p.getInput());
            List<Expr> exprs = p.getProjects().stream().map(Exec::compile).toList();
            return params -> () -> iterate(in.open(params), r -> {
                Object[] out = new Object[exprs.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = exprs.get(i).eval(r, params);
                }
                return out;
            });
        }
        if (rel instanceof TellHashAggregate a) {
            Node in = implement(a.getInput());
            int[] group = a.getGroupSet().toArray();
            List<AggregateCall> calls = a.getAggCallList();
            return params -> {
                Map<List<Object>, long[]> groups = new LinkedHashMap<>();
                for (Object[] r : in.open(params)) {
                    List<Object> key = new ArrayList<>(group.length);
                    for (int g : group) {
                        key.add(r[g]);
                    }
                    long[] acc = groups.computeIfAbsent(key, k -> new long[calls.size()]);
                    for (int i = 0; i < calls.size(); i++) {
                        AggregateCall c = calls.get(i);
                        switch (c.getAggregation().getKind()) {
                            case COUNT -> acc[i] += c.getArgList().isEmpty() || r[c.getArgList().get(0)] != null ? 1 : 0;
                            case SUM -> acc[i] += ((Number) r[c.getArgList().get(0)]).longValue();
                            default -> throw new UnsupportedOperationException(c.toString());
                        }
                    }
                }
                List<Object[]> out = new ArrayList<>();
                groups.forEach((k, acc) -> {
                    Object[] row = new Object[group.length + acc.length];
                    for (int i = 0; i < group.length; i++) {
                        row[i] = k.get(i);
                    }
                    for (int i = 0; i < acc.length; i++) {
                        row[group.length + i] = acc[i];
                    }
                    out.add(row);
                });
                return out;
            };
        }
        throw new UnsupportedOperationException("no executor for " + rel.getRelTypeName());
    }

    /** Compiles a RexNode once into a closure tree; the switch on SqlKind runs at plan time only. */
    static Expr compile(RexNode rex) {
        if (rex instanceof RexInputRef ref) {
            int i = ref.getIndex();
            return (row, params) -> row[i];
        }
        if (rex instanceof RexDynamicParam p) {
            int i = p.getIndex();
            return (row, params) -> params[i];
        }
        if (rex instanceof RexLiteral lit) {
            Object v = lit.getValue2() instanceof Long l && lit.getType().getSqlTypeName().getName().equals("INTEGER")
                    ? Integer.valueOf(l.intValue()) : lit.getValue2();
            return (row, params) -> v;
        }
        if (rex instanceof RexCall call) {
            List<Expr> ops = call.getOperands().stream().map(Exec::compile).toList();
            return switch (call.getKind()) {
                case EQUALS -> nullSafe2(ops, (x, y) -> compare(x, y) == 0);
                case LESS_THAN -> nullSafe2(ops, (x, y) -> compare(x, y) < 0);
                case GREATER_THAN -> nullSafe2(ops, (x, y) -> compare(x, y) > 0);
                case AND -> (row, params) -> { // three-valued AND
                    boolean sawNull = false;
                    for (Expr e : ops) {
                        Object v = e.eval(row, params);
                        if (Boolean.FALSE.equals(v)) {
                            return false;
                        }
                        sawNull |= v == null;
                    }
                    return sawNull ? null : true;
                };
                case CAST -> ops.get(0); // spike: casts between integer types only
                default -> throw new UnsupportedOperationException("operator " + call.getOperator());
            };
        }
        throw new UnsupportedOperationException(rex.toString());
    }

    private static Expr nullSafe2(List<Expr> ops, java.util.function.BiPredicate<Object, Object> p) {
        Expr l = ops.get(0);
        Expr r = ops.get(1);
        return (row, params) -> {
            Object x = l.eval(row, params);
            Object y = r.eval(row, params);
            return x == null || y == null ? null : p.test(x, y);
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object x, Object y) {
        if (x instanceof Number a && y instanceof Number b) {
            return Long.compare(a.longValue(), b.longValue());
        }
        return ((Comparable) x).compareTo(y);
    }

    /** Maps each row of {@code in} through {@code f}; a null result drops the row. */
    private static java.util.Iterator<Object[]> iterate(Iterable<Object[]> in, Function<Object[], Object[]> f) {
        java.util.Iterator<Object[]> it = in.iterator();
        return new java.util.Iterator<>() {
            Object[] next = advance();

            private Object[] advance() {
                while (it.hasNext()) {
                    Object[] r = f.apply(it.next());
                    if (r != null) {
                        return r;
                    }
                }
                return null;
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Object[] next() {
                Object[] r = next;
                next = advance();
                return r;
            }
        };
    }

    static Supplier<String> render(Iterable<Object[]> rows) {
        return () -> {
            StringBuilder sb = new StringBuilder();
            for (Object[] r : rows) {
                sb.append(java.util.Arrays.toString(r)).append('\n');
            }
            return sb.toString();
        };
    }
}
