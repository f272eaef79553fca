package io.tell.sql.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexPermuteInputsShuttle;
import org.apache.calcite.util.ImmutableBitSet;
import org.apache.calcite.util.mapping.Mapping;
import org.apache.calcite.util.mapping.MappingType;
import org.apache.calcite.util.mapping.Mappings;

/**
 * Projection push-down, a pass over the finished physical plan: a projection (optionally over
 * a filter) over a table or index scan makes the scan decode only the columns the two use; the
 * others are skipped in the row bytes without building values. Scans under data modifications
 * keep whole rows (their projections use every column anyway).
 */
public final class Projections {
    private Projections() {
    }

    /** {@code rel} with projections pushed into the scans below them. */
    public static RelNode pushDown(RelNode rel) {
        return pushDown(rel, new java.util.IdentityHashMap<>());
    }

    /** {@link #pushDown}, an operator reached along several paths (a shared subplan) rewritten once. */
    private static RelNode pushDown(RelNode rel, Map<RelNode, RelNode> done) {
        RelNode known = done.get(rel);
        if (known != null) {
            return known;
        }
        RelNode out = rel instanceof TellProject p ? intoScan(p) : null;
        if (out == null) {
            List<RelNode> inputs = new ArrayList<>();
            boolean changed = false;
            for (RelNode in : rel.getInputs()) {
                RelNode next = pushDown(in, done);
                changed |= next != in;
                inputs.add(next);
            }
            out = changed ? rel.copy(rel.getTraitSet(), inputs) : rel;
        }
        done.put(rel, out);
        return out;
    }

    /** Project(Filter?(scan)) with the scan narrowed to the columns used, or null when all are used. */
    private static RelNode intoScan(TellProject p) {
        TellFilter filter = p.getInput() instanceof TellFilter f ? f : null;
        RelNode below = filter != null ? filter.getInput() : p.getInput();
        if (!(below instanceof TellTableScan || below instanceof TellIndexScan) || isNarrowed((TableScan) below)) {
            return null;
        }
        ImmutableBitSet used = RelOptUtil.InputFinder.bits(p.getProjects(), filter == null ? null : filter.getCondition());
        int width = below.getRowType().getFieldCount();
        if (used.cardinality() == width) {
            return null;
        }
        int[] columns = used.toArray();
        Mapping mapping = Mappings.create(MappingType.INVERSE_SURJECTION, width, columns.length);
        for (int i = 0; i < columns.length; i++) {
            mapping.set(columns[i], i);
        }
        RelNode scan = below instanceof TellTableScan t ? t.withColumns(columns) : ((TellIndexScan) below).withColumns(columns);
        RexPermuteInputsShuttle remap = new RexPermuteInputsShuttle(mapping, scan);
        RelNode in = scan;
        if (filter != null) {
            in = new TellFilter(filter.getCluster(), filter.getTraitSet(), scan, filter.getCondition().accept(remap));
        }
        List<RexNode> projects = new ArrayList<>();
        for (RexNode e : p.getProjects()) {
            projects.add(e.accept(remap));
        }
        return new TellProject(p.getCluster(), p.getTraitSet(), in, projects, p.getRowType());
    }

    private static boolean isNarrowed(TableScan scan) {
        return scan.getRowType().getFieldCount() != scan.getTable().getRowType().getFieldCount();
    }

    /** The row type of a scan producing {@code columns} of its table (null: all). */
    static RelDataType rowType(TableScan scan, int[] columns) {
        RelDataType full = scan.getTable().getRowType();
        if (columns == null) {
            return full;
        }
        List<RelDataTypeField> fields = full.getFieldList();
        RelDataTypeFactory.Builder b = scan.getCluster().getTypeFactory().builder();
        for (int c : columns) {
            b.add(fields.get(c).getName(), fields.get(c).getType());
        }
        return b.build();
    }

    static List<String> names(TableScan scan, int[] columns) {
        List<String> out = new ArrayList<>();
        if (columns != null) {
            for (int c : columns) {
                out.add(scan.getTable().getRowType().getFieldList().get(c).getName());
            }
        }
        return out;
    }

    static RelWriter explain(RelWriter pw, TableScan scan, int[] columns) {
        return pw.itemIf("columns", names(scan, columns), columns != null);
    }
}
