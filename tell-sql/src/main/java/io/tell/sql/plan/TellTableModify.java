package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.txn.RowMerge;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexNode;

/**
 * INSERT, UPDATE and DELETE over {@link TableStore} (MERGE is planned apart, {@link Merges}). The input is read
 * completely first and every new row validated (types, lengths, NOT NULL) before the first write, so a statement
 * that fails on bad data changes nothing. UPDATE and DELETE take each row's rid from the scan
 * of the target table at the bottom of the input (the left-most path through filters,
 * projections and joins). An UPDATE by key or index merges with concurrent changes of other
 * columns ({@link MergeableUpdate}). Produces one row, the number of rows changed, or with
 * RETURNING ({@link Implementor#returnRows}) one row per changed row.
 */
public final class TellTableModify extends TableModify implements TellRel {
    public TellTableModify(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, Prepare.CatalogReader catalogReader,
                           RelNode input, Operation operation, List<String> updateColumnList,
                           List<RexNode> sourceExpressionList, boolean flattened) {
        super(cluster, traits, table, catalogReader, input, operation, updateColumnList, sourceExpressionList, flattened);
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new TellTableModify(getCluster(), traitSet, table, catalogReader, sole(inputs), getOperation(),
                getUpdateColumnList(), getSourceExpressionList(), isFlattened());
    }

    @Override
    public ExecNode implement(Implementor impl) {
        TableStore store = impl.table(table);
        TableDef def = store.def();
        Operation op = getOperation();
        if (op != Operation.INSERT && op != Operation.UPDATE && op != Operation.DELETE) {
            throw TellException.of(ErrorCode.INTERNAL, op + " reached TellTableModify; MERGE has a plan of its own");
        }
        int width = def.columns().size();
        int[] updated = op == Operation.UPDATE ? def.columnIndexes(getUpdateColumnList()) : new int[0];
        RelNode scan = op == Operation.INSERT ? null : targetScan(getInput(), def);
        MergeableUpdate merging = op == Operation.UPDATE && impl.returner() == null && impl.upsert() == null
                && impl.rowChecks() == null && impl.foreignKeys() == null ? MergeableUpdate.of(getInput(), scan, updated) : null;
        if (scan != null) {
            impl.setRidSource(scan, merging == null ? null : merging.reads());
        }
        ExecNode in = impl.visit(getInput());
        Implementor.RowReturner returner = impl.returner();
        Upsert upsert = impl.upsert();
        RowChecks checks = impl.rowChecks();
        ForeignKeyRules fks = impl.foreignKeys();
        if (upsert != null) {
            return ctx -> Cursor.of(new Upserts(store, upsert, new RowWrites(store, returner, checks, fks, ctx), ctx)
                    .run(in.open(ctx)));
        }
        return ctx -> {
            Cursor c = in.open(ctx);
            List<Object[]> rows = new ArrayList<>();
            List<Object[]> olds = new ArrayList<>();
            List<Long> rids = new ArrayList<>();
            for (Object[] r = c.next(); r != null; r = c.next()) {
                ctx.check();
                switch (op) {
                    case INSERT -> rows.add(checked(store.validate(r), checks, ctx));
                    case UPDATE -> {
                        Object[] next = java.util.Arrays.copyOf(r, width);
                        for (int i = 0; i < updated.length; i++) {
                            next[updated[i]] = r[width + i];
                        }
                        rows.add(checked(store.validate(next), checks, ctx));
                        olds.add(fks != null ? java.util.Arrays.copyOf(r, width) : null);
                        rids.add(ctx.targetRid());
                    }
                    default -> {
                        // the deleted row: for RETURNING, and for the foreign keys that reference it
                        rows.add(returner != null || fks != null ? java.util.Arrays.copyOf(r, width) : null);
                        rids.add(ctx.targetRid());
                    }
                }
            }
            long count = 0;
            List<Object[]> returned = new ArrayList<>();
            RowMerge merge = merging == null ? null : store.merge(updated, merging.reapplied(), ctx);
            for (int i = 0; i < rows.size(); i++) {
                boolean changed = switch (op) {
                    case INSERT -> {
                        if (ctx.checksAtStatement()) {
                            store.checkUniqueKeys(ctx.transaction(), rows.get(i));
                        }
                        if (fks != null) {
                            fks.checkParents(ctx.transaction(), rows.get(i), null);
                        }
                        store.insert(ctx.transaction(), rows.get(i));
                        yield true;
                    }
                    case UPDATE -> {
                        if (fks != null) {
                            fks.checkParents(ctx.transaction(), rows.get(i), olds.get(i));
                            fks.beforeUpdate(ctx.transaction(), olds.get(i), rows.get(i));
                        }
                        yield store.update(ctx.transaction(), rids.get(i), rows.get(i), merge);
                    }
                    default -> {
                        if (fks != null) {
                            fks.beforeDelete(ctx.transaction(), rows.get(i));
                        }
                        yield store.delete(ctx.transaction(), rids.get(i));
                    }
                };
                if (changed) {
                    count++;
                    if (returner != null) {
                        returned.add(returner.row(rows.get(i), ctx));
                    }
                }
            }
            if (ctx.checksAtStatement() && !rids.isEmpty()) {
                store.checkCurrent(ctx.transaction(), rids);
            }
            return Cursor.of(returner != null ? returned : List.<Object[]>of(new Object[] {count}));
        };
    }

    private static Object[] checked(Object[] row, RowChecks checks, io.tell.sql.exec.ExecContext ctx) {
        if (checks != null) {
            checks.check(row, ctx);
        }
        return row;
    }

    private static RelNode targetScan(RelNode rel, TableDef def) {
        RelNode r = rel;
        while (true) {
            if (r instanceof TableScan scan && Implementor.def(scan.getTable()).id() == def.id()) {
                return r;
            }
            if (r instanceof Filter || r instanceof Project || r instanceof Join || r instanceof Correlate) {
                r = r.getInput(0);
                continue;
            }
            if (r instanceof org.apache.calcite.plan.volcano.RelSubset subset) {
                r = subset.getBest();
                continue;
            }
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot tell which rows of " + def.name()
                    + " to change through " + r.getRelTypeName() + "; simplify the statement");
        }
    }
}
