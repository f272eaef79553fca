package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.Rows;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.Util;

/**
 * One execution of MERGE. Its input, as Calcite builds it from the source joined to the target,
 * holds per source row: the row to insert (when the statement has WHEN NOT MATCHED THEN INSERT),
 * then, when it has WHEN MATCHED THEN UPDATE, the target row matched (all NULL when none: the
 * join is a left join then) and the new values of the updated columns. Every new row is
 * validated before the first write; a matched row is then found again by its primary key (in the
 * transaction's view) and updated, and the rows not matched are inserted. A target row matched
 * by two source rows fails the statement (21000), as in PostgreSQL.
 */
public final class Merges {
    private final TableStore store;
    private final int width;
    private final boolean inserts;
    private final int[] updated;
    private final int[] primaryKey;
    private final RowWrites writes;
    private final ExecContext ctx;

    /** {@code updated}: the columns WHEN MATCHED sets, null without that clause. */
    Merges(TableStore store, boolean inserts, int[] updated, RowWrites writes, ExecContext ctx) {
        this.store = store;
        this.width = store.def().columns().size();
        this.inserts = inserts;
        this.updated = updated;
        this.primaryKey = store.def().columnIndexes(store.def().primaryKey());
        this.writes = writes;
        this.ctx = ctx;
        if (updated != null && primaryKey.length == 0) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "MERGE ... WHEN MATCHED THEN UPDATE needs a table with"
                    + " a primary key, and " + store.def().name() + " has none");
        }
    }

    /**
     * Calcite's MERGE plan made into the input {@link #run} reads. Calcite joins the source to
     * the target (a left join when MERGE may insert, else an inner join) and projects the insert
     * values, the target columns and the update values; but it finds the target columns by
     * skipping the join's left input, which is wider than the source when the ON condition needed
     * a cast there, so the target columns are taken again from the join's right input (whose own
     * casts come after them). And when MERGE only inserts, it keeps the source rows that match:
     * the join becomes an anti join. Other plans are returned as they are.
     */
    public static RelNode planned(RelNode rel) {
        if (!(rel instanceof TableModify modify) || modify.getOperation() != TableModify.Operation.MERGE) {
            return rel;
        }
        if (!(modify.getInput() instanceof Project project) || !(project.getInput() instanceof Join join)
                || join.getJoinType() != JoinRelType.LEFT && join.getJoinType() != JoinRelType.INNER) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "MERGE planned as " + modify.getInput().getRelTypeName()
                    + " is not supported");
        }
        List<String> set = modify.getUpdateColumnList() == null ? List.of() : modify.getUpdateColumnList();
        int width = modify.getTable().getRowType().getFieldCount();
        int sourceWidth = join.getLeft().getRowType().getFieldCount();
        RelNode source;
        if (set.isEmpty()) {
            Join anti = join.copy(join.getTraitSet(), join.getCondition(), join.getLeft(), join.getRight(), JoinRelType.ANTI,
                    join.isSemiJoinDone());
            source = project.copy(project.getTraitSet(), anti, project.getProjects(), project.getRowType());
        } else {
            List<RexNode> given = project.getProjects();
            int inserts = join.getJoinType() == JoinRelType.LEFT ? width : 0;
            List<RexNode> projects = new ArrayList<>(given.subList(0, inserts));
            // the table's columns, before any the ON condition's casts added to the right input
            for (RelDataTypeField f : Util.skip(join.getRowType().getFieldList(), sourceWidth).subList(0, width)) {
                projects.add(new RexInputRef(f.getIndex(), f.getType())); // nullable after a left join
            }
            projects.addAll(given.subList(given.size() - set.size(), given.size()));
            List<String> names = new ArrayList<>();
            for (int i = 0; i < projects.size(); i++) {
                names.add("$f" + i);
            }
            source = RelOptUtil.createProject(join, projects, names);
        }
        return modify.copy(modify.getTraitSet(), List.of(source));
    }

    List<Object[]> run(Cursor input) {
        List<Object[]> news = new ArrayList<>();
        List<Object[]> matchedTargets = new ArrayList<>();
        List<Object[]> updates = new ArrayList<>();
        int at = inserts ? width : 0;
        for (Object[] r = input.next(); r != null; r = input.next()) {
            ctx.check();
            if (updated != null && r[at + primaryKey[0]] != null) { // a primary key is never NULL: matched
                Object[] target = Arrays.copyOfRange(r, at, at + width);
                Object[] next = target.clone();
                for (int i = 0; i < updated.length; i++) {
                    next[updated[i]] = r[at + width + i];
                }
                matchedTargets.add(target);
                updates.add(writes.validated(next));
            } else if (inserts) {
                news.add(writes.validated(Arrays.copyOf(r, width)));
            }
        }
        List<Long> rids = new ArrayList<>();
        for (int i = 0; i < updates.size(); i++) {
            Object[] key = Rows.keyValues(matchedTargets.get(i), primaryKey);
            TableStore.Row current = store.holding(ctx.transaction(), null, key).orElseThrow(() -> TellException.of(
                    ErrorCode.INTERNAL, "MERGE matched a row of " + store.def().name() + " it cannot find by its key"));
            if (!writes.touch(current.rid())) {
                throw TellException.of(ErrorCode.CARDINALITY_VIOLATION, "MERGE command cannot affect row a second time:"
                        + " more than one source row matches the same row of " + store.def().name());
            }
            writes.update(current.rid(), current.values(), updates.get(i));
            rids.add(current.rid());
        }
        for (Object[] row : news) {
            if (ctx.checksAtStatement()) {
                store.checkUniqueKeys(ctx.transaction(), row);
            }
            writes.insert(row);
        }
        if (ctx.checksAtStatement() && !rids.isEmpty()) {
            store.checkCurrent(ctx.transaction(), rids);
        }
        return writes.result();
    }
}
