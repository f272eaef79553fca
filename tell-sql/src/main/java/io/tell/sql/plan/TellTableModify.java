package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.Prepare;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * INSERT, UPDATE and DELETE over {@link TableStore} (MERGE is planned apart, {@link Merges}). The input is read
 * completely first and every new row validated (types, lengths, NOT NULL) before the first write, so a statement
 * that fails on bad data changes nothing. UPDATE and DELETE take each row's rid from the scan
 * of the target table at the bottom of the input (the left-most path through filters,
 * projections and joins). Produces one row, the number of rows changed, or with RETURNING
 * ({@link Implementor#returnRows}) one row per changed row.
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
        int[] reads = null;
        if (op != Operation.INSERT) {
            RelNode scan = targetScan(getInput(), def);
            if (op == Operation.UPDATE && impl.returner() == null && impl.upsert() == null && impl.rowChecks() == null
                    && impl.foreignKeys() == null) {
                reads = updateReads(getInput(), scan, width);
            }
            impl.setRidSource(scan, reads);
        }
        boolean mergeable = reads != null;
        ExecNode in = impl.visit(getInput());
        int[] updated = op == Operation.UPDATE ? def.columnIndexes(getUpdateColumnList()) : new int[0];
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
                        yield store.update(ctx.transaction(), rids.get(i), rows.get(i), mergeable);
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

    /**
     * The columns an UPDATE shaped Project(Filter?(index scan)) uses of each row: those its
     * condition and new values read (the scan adds its key's); null for any other shape, which
     * counts as using whole rows. Such an UPDATE merges with concurrent changes of other columns
     * ({@link TableStore#update(io.tell.txn.Transaction, long, Object[], boolean)}).
     */
    private static int[] updateReads(RelNode input, RelNode scan, int width) {
        if (!(best(input) instanceof TellProject project) || !(scan instanceof TellIndexScan)
                || scan.getRowType().getFieldCount() != width) {
            return null;
        }
        RelNode below = best(project.getInput());
        RexNode condition = null;
        if (below instanceof TellFilter filter) {
            condition = filter.getCondition();
            below = best(filter.getInput());
        }
        List<RexNode> projects = project.getProjects();
        if (below != scan || projects.size() < width) {
            return null;
        }
        for (int i = 0; i < width; i++) {
            if (!(projects.get(i) instanceof RexInputRef ref) || ref.getIndex() != i) {
                return null;
            }
        }
        return RelOptUtil.InputFinder.bits(projects.subList(width, projects.size()), condition).toArray();
    }

    private static RelNode best(RelNode rel) {
        return rel instanceof org.apache.calcite.plan.volcano.RelSubset subset ? subset.getBest() : rel;
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
