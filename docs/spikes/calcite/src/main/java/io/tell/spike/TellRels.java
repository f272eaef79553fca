package io.tell.spike;

import java.util.List;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Spike: Tell's calling convention and a handful of its physical operators. Each operator is a
 * plain Calcite RelNode subclass; execution (see {@link Exec}) walks the tree, never Enumerable.
 */
final class TellRels {
    private TellRels() {
    }

    /** Marker for every physical operator of the Tell convention. */
    interface TellRel extends RelNode {
    }

    /** The one physical convention; logical nodes (Convention.NONE) have infinite cost. */
    static final Convention TELL = new Convention.Impl("TELL", TellRel.class);

    /** Full scan of a table's rows (a range scan of its primary-key tree). */
    static final class TellTableScan extends TableScan implements TellRel {
        TellTableScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table) {
            super(cluster, traits, List.of(), table);
        }

        @Override
        public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
            return new TellTableScan(getCluster(), traitSet, table);
        }
    }

    /** Equality lookup of a key prefix in one index, then a batched fetch of the rows found. */
    static final class TellIndexLookup extends TableScan implements TellRel {
        final String index;
        final List<RexNode> keys;

        TellIndexLookup(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, String index, List<RexNode> keys) {
            super(cluster, traits, List.of(), table);
            this.index = index;
            this.keys = keys;
        }

        @Override
        public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
            return new TellIndexLookup(getCluster(), traitSet, table, index, keys);
        }

        @Override
        public RelWriter explainTerms(RelWriter pw) {
            return super.explainTerms(pw).item("index", index).item("key", keys);
        }

        @Override
        public double estimateRowCount(RelMetadataQuery mq) {
            return Math.max(1, table.getRowCount() / 100);
        }

        @Override
        public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
            double rows = estimateRowCount(mq);
            return planner.getCostFactory().makeCost(rows, rows, 1 + rows / 100);
        }
    }

    static final class TellFilter extends Filter implements TellRel {
        TellFilter(RelOptCluster cluster, RelTraitSet traits, RelNode input, RexNode condition) {
            super(cluster, traits, input, condition);
        }

        @Override
        public Filter copy(RelTraitSet traitSet, RelNode input, RexNode condition) {
            return new TellFilter(getCluster(), traitSet, input, condition);
        }
    }

    static final class TellProject extends Project implements TellRel {
        TellProject(RelOptCluster cluster, RelTraitSet traits, RelNode input, List<? extends RexNode> projects,
                RelDataType rowType) {
            super(cluster, traits, List.of(), input, projects, rowType, java.util.Set.of());
        }

        @Override
        public Project copy(RelTraitSet traitSet, RelNode input, List<RexNode> projects, RelDataType rowType) {
            return new TellProject(getCluster(), traitSet, input, projects, rowType);
        }
    }

    static final class TellHashAggregate extends Aggregate implements TellRel {
        TellHashAggregate(RelOptCluster cluster, RelTraitSet traits, RelNode input, ImmutableBitSet groupSet,
                List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
            super(cluster, traits, List.of(), input, groupSet, groupSets, aggCalls);
        }

        @Override
        public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
                List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
            return new TellHashAggregate(getCluster(), traitSet, input, groupSet, groupSets, aggCalls);
        }
    }
}
