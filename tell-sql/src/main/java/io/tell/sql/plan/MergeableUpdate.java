package io.tell.sql.plan;

import io.tell.sql.RowMerger;
import io.tell.sql.exec.ExprCompiler;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.volcano.RelSubset;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * What an UPDATE shaped {@code Project(Filter?(index scan))} — every single-table update by key
 * or by index — uses of the rows it changes, so that it can merge with concurrent committed
 * changes of other columns ({@link io.tell.sql.TableStore#merge}): the columns its condition
 * and new values read (the scan adds its index key's), except a column set from its own value
 * alone and read nowhere else, which is {@linkplain RowMerger.Reapplied re-applied} instead:
 * its expression is evaluated again on the newer version's value, exactly as the statement
 * would have had it run after that version's writer.
 * Any other shape uses whole rows and never merges.
 *
 * @param reads     the columns read (ascending)
 * @param reapplied the columns set from their own value alone, with their expressions
 */
record MergeableUpdate(int[] reads, List<RowMerger.Reapplied> reapplied) {
    /** The update of {@code updated} columns over {@code input}, whose rows {@code scan} reads; null when it cannot merge. */
    static MergeableUpdate of(RelNode input, RelNode scan, int[] updated) {
        int width = scan.getRowType().getFieldCount();
        if (!(best(input) instanceof TellProject project) || !(scan instanceof TellIndexScan)
                || width != scan.getTable().getRowType().getFieldCount()) {
            return null;
        }
        RelNode below = best(project.getInput());
        RexNode condition = null;
        if (below instanceof TellFilter filter) {
            condition = filter.getCondition();
            below = best(filter.getInput());
        }
        List<RexNode> projects = project.getProjects();
        if (below != scan || projects.size() != width + updated.length) {
            return null;
        }
        for (int i = 0; i < width; i++) {
            if (!(projects.get(i) instanceof RexInputRef ref) || ref.getIndex() != i) {
                return null;
            }
        }
        ImmutableBitSet.Builder others = ImmutableBitSet.builder(); // what the condition and all other new values read
        if (condition != null) {
            others.addAll(RelOptUtil.InputFinder.bits(condition));
        }
        List<Integer> own = new ArrayList<>(); // positions in updated of values computed from their own column alone
        for (int k = 0; k < updated.length; k++) {
            RexNode value = projects.get(width + k);
            ImmutableBitSet bits = RelOptUtil.InputFinder.bits(value);
            if (bits.equals(ImmutableBitSet.of(updated[k])) && RexUtil.isDeterministic(value)) {
                own.add(k);
            } else {
                others.addAll(bits);
            }
        }
        ImmutableBitSet read = others.build();
        List<RowMerger.Reapplied> reapplied = new ArrayList<>();
        ImmutableBitSet.Builder reads = read.rebuild();
        for (int k : own) {
            if (read.get(updated[k])) {
                reads.set(updated[k]);
            } else {
                reapplied.add(new RowMerger.Reapplied(updated[k], ExprCompiler.compile(projects.get(width + k))));
            }
        }
        return new MergeableUpdate(reads.build().toArray(), List.copyOf(reapplied));
    }

    private static RelNode best(RelNode rel) {
        return rel instanceof RelSubset subset ? subset.getBest() : rel;
    }
}
