package io.tell.sql.plan;

import io.tell.error.TellException;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Expr;
import io.tell.sql.exec.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;

/**
 * Rows found through an index (null name: the primary key): equality on a prefix of its
 * columns ({@code keys}), optionally bounded on the next column ({@code lower}/{@code upper},
 * each null when open). Bounds are literals, parameters or correlated outer columns, evaluated
 * when the scan opens; a NULL bound matches nothing.
 */
public final class TellIndexScan extends TableScan implements TellRel {
    final String index;
    final List<RexNode> keys;
    final RexNode lower;
    final boolean lowerInclusive;
    final RexNode upper;
    final boolean upperInclusive;
    private final boolean unique;
    private final int[] columns;

    public TellIndexScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, String index, List<RexNode> keys,
                         RexNode lower, boolean lowerInclusive, RexNode upper, boolean upperInclusive, boolean unique) {
        this(cluster, traits, table, index, keys, lower, lowerInclusive, upper, upperInclusive, unique, null);
    }

    private TellIndexScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, String index, List<RexNode> keys,
                          RexNode lower, boolean lowerInclusive, RexNode upper, boolean upperInclusive, boolean unique,
                          int[] columns) {
        super(cluster, traits, List.of(), table);
        this.columns = columns;
        this.index = index;
        this.keys = List.copyOf(keys);
        this.lower = lower;
        this.lowerInclusive = lowerInclusive;
        this.upper = upper;
        this.upperInclusive = upperInclusive;
        this.unique = unique;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new TellIndexScan(getCluster(), traitSet, table, index, keys, lower, lowerInclusive, upper,
                upperInclusive, unique, columns);
    }

    /** This scan producing only the columns at {@code columns} (ascending table positions). */
    TellIndexScan withColumns(int[] columns) {
        return new TellIndexScan(getCluster(), traitSet, table, index, keys, lower, lowerInclusive, upper,
                upperInclusive, unique, columns);
    }

    @Override
    public RelDataType deriveRowType() {
        return Projections.rowType(this, columns);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw)
                .item("index", index == null ? "PRIMARY KEY" : index)
                .itemIf("key", keys, !keys.isEmpty())
                .itemIf(lowerInclusive ? "from" : "after", lower, lower != null)
                .itemIf(upperInclusive ? "to" : "before", upper, upper != null)
                .itemIf("columns", Projections.names(this, columns), columns != null);
    }

    /** True when the index is unique and every one of its columns is bound by equality: at most one row. */
    boolean pointLookup() {
        TableDef def = Implementor.def(table);
        int columns = index == null ? def.primaryKey().size() : def.index(index).columns().size();
        return unique && keys.size() == columns && lower == null && upper == null;
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        if (pointLookup()) {
            return 1;
        }
        double rows = table.getRowCount() * Math.pow(0.1, keys.size());
        if (lower != null || upper != null) {
            rows *= lower != null && upper != null ? 0.1 : 0.3;
        }
        return Math.max(1, rows);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        double rows = estimateRowCount(mq);
        return planner.getCostFactory().makeCost(rows, rows, 1 + rows / 50);
    }

    @Override
    public ExecNode implement(Implementor impl) {
        return implement(impl, null);
    }

    /**
     * The scan reading at most {@code limit} rows (null: all) in index order: what an ORDER BY on
     * the index's next columns with a LIMIT needs ({@link TellSort}).
     */
    ExecNode implement(Implementor impl, Expr limit) {
        TableStore store = impl.table(table);
        boolean publish = impl.publishesRid(this);
        boolean lock = impl.forUpdate();
        int[] read = impl.reads(this, columns);
        Function<ExecContext, TableStore.Bounds> bounds = bounds(store);
        return ctx -> {
            TableStore.Bounds b = bounds.apply(ctx);
            if (b == null) {
                return Cursor.EMPTY;
            }
            List<TableStore.Row> rows;
            try {
                rows = store.range(ctx.transaction(), index, b.from(), b.fromInclusive(), b.to(), b.toInclusive(),
                        limit(limit, ctx), columns, read);
            } catch (TellException e) {
                if (lower == null && upper == null && !store.fits(index, b)) {
                    return Cursor.EMPTY; // an equality value the column's type cannot hold matches nothing
                }
                throw e; // the read's own failure (a conflict, the store): never taken for no match
            }
            return new ScanCursor(rows, ctx, store, publish, lock);
        };
    }

    /** What reads ahead for this scan (without a limit) when a join runs it for many outer rows. */
    ReadAhead readAhead(Implementor impl) {
        TableStore store = impl.table(table);
        return new ReadAhead(store, index, bounds(store));
    }

    /** The scan's bounds for the values its expressions take in a context; null when it matches nothing (a NULL bound). */
    private Function<ExecContext, TableStore.Bounds> bounds(TableStore store) {
        List<Expr> keyExprs = keys.stream().map(ExprCompiler::compile).toList();
        Expr lo = lower == null ? null : ExprCompiler.compile(lower);
        Expr hi = upper == null ? null : ExprCompiler.compile(upper);
        boolean nullableNext = nextColumnNullable(store.def());
        return ctx -> {
            List<Object> prefix = new ArrayList<>(keyExprs.size() + 1);
            for (Expr k : keyExprs) {
                Object v = k.eval(null, ctx);
                if (v == null) {
                    return null;
                }
                prefix.add(v);
            }
            Object[] from = prefix.toArray();
            Object[] to = from;
            boolean fromInclusive = true;
            boolean toInclusive = true;
            if (lo != null) {
                Object v = lo.eval(null, ctx);
                if (v == null) {
                    return null;
                }
                from = append(prefix, v);
                fromInclusive = lowerInclusive;
            } else if (hi != null && nullableNext) {
                from = append(prefix, null); // a range never includes NULLs, which sort first
                fromInclusive = false;
            }
            if (hi != null) {
                Object v = hi.eval(null, ctx);
                if (v == null) {
                    return null;
                }
                to = append(prefix, v);
                toInclusive = upperInclusive;
            }
            return new TableStore.Bounds(from, fromInclusive, to, toInclusive);
        };
    }

    private static int limit(Expr limit, ExecContext ctx) {
        Object n = limit == null ? null : limit.eval(null, ctx);
        return n == null ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE, Math.max(0, ((Number) n).longValue()));
    }

    /**
     * True when rows come out of this scan already ordered by its output {@code fields}
     * (ascending, nulls first): they are the index's columns right after the equality
     * prefix (a prefix of them), and none can be NULL.
     */
    boolean ordersBy(List<Integer> fields) {
        TableDef def = Implementor.def(table);
        List<String> indexColumns = index == null ? def.primaryKey() : def.index(index).columns();
        if (fields.isEmpty() || keys.size() + fields.size() > indexColumns.size()) {
            return false;
        }
        for (int i = 0; i < fields.size(); i++) {
            int column = def.columnIndex(indexColumns.get(keys.size() + i));
            int field = columns == null ? fields.get(i) : columns[fields.get(i)];
            if (field != column || def.columns().get(column).nullable()) {
                return false;
            }
        }
        return true;
    }

    private boolean nextColumnNullable(TableDef def) {
        List<String> columns = index == null ? def.primaryKey() : def.index(index).columns();
        if (keys.size() >= columns.size()) {
            return false;
        }
        return def.columns().get(def.columnIndex(columns.get(keys.size()))).nullable();
    }

    private static Object[] append(List<Object> prefix, Object v) {
        Object[] out = prefix.toArray(new Object[prefix.size() + 1]);
        out[prefix.size()] = v;
        return out;
    }
}
