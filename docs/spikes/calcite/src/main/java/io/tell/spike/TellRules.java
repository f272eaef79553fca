package io.tell.spike;

import io.tell.spike.TellRels.TellFilter;
import io.tell.spike.TellRels.TellHashAggregate;
import io.tell.spike.TellRels.TellIndexLookup;
import io.tell.spike.TellRels.TellProject;
import io.tell.spike.TellRels.TellTableScan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/** Spike: the rules that turn logical nodes into Tell operators, and one index-selection rule. */
final class TellRules {
    private TellRules() {
    }

    static List<RelOptRule> all() {
        return List.of(
                ScanRule.CONFIG.toRule(),
                FilterRule.CONFIG.toRule(),
                ProjectRule.CONFIG.toRule(),
                AggregateRule.CONFIG.toRule(),
                new IndexLookupRule());
    }

    static final class ScanRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE
                .withConversion(LogicalTableScan.class, Convention.NONE, TellRels.TELL, "TellScanRule")
                .withRuleFactory(ScanRule::new);

        ScanRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalTableScan scan = (LogicalTableScan) rel;
            return new TellTableScan(scan.getCluster(), scan.getTraitSet().replace(TellRels.TELL), scan.getTable());
        }
    }

    static final class FilterRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE
                .withConversion(LogicalFilter.class, Convention.NONE, TellRels.TELL, "TellFilterRule")
                .withRuleFactory(FilterRule::new);

        FilterRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalFilter f = (LogicalFilter) rel;
            RelNode input = convert(f.getInput(), f.getInput().getTraitSet().replace(TellRels.TELL));
            return new TellFilter(f.getCluster(), f.getTraitSet().replace(TellRels.TELL), input, f.getCondition());
        }
    }

    static final class ProjectRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE
                .withConversion(LogicalProject.class, Convention.NONE, TellRels.TELL, "TellProjectRule")
                .withRuleFactory(ProjectRule::new);

        ProjectRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalProject p = (LogicalProject) rel;
            RelNode input = convert(p.getInput(), p.getInput().getTraitSet().replace(TellRels.TELL));
            return new TellProject(p.getCluster(), p.getTraitSet().replace(TellRels.TELL), input, p.getProjects(),
                    p.getRowType());
        }
    }

    static final class AggregateRule extends ConverterRule {
        static final Config CONFIG = Config.INSTANCE
                .withConversion(LogicalAggregate.class, Convention.NONE, TellRels.TELL, "TellAggregateRule")
                .withRuleFactory(AggregateRule::new);

        AggregateRule(Config config) {
            super(config);
        }

        @Override
        public RelNode convert(RelNode rel) {
            LogicalAggregate a = (LogicalAggregate) rel;
            RelNode input = convert(a.getInput(), a.getInput().getTraitSet().replace(TellRels.TELL));
            return new TellHashAggregate(a.getCluster(), a.getTraitSet().replace(TellRels.TELL), input,
                    a.getGroupSet(), a.getGroupSets(), a.getAggCallList());
        }
    }

    /**
     * Filter(scan) with {@code col = literal-or-?} conjuncts covering a prefix of an index's
     * columns becomes IndexLookup + Filter(rest). Offered alongside the plain scan; the cost
     * model picks. The real rule would also derive ranges (<, <=, BETWEEN, LIKE 'x%').
     */
    static final class IndexLookupRule extends RelOptRule {
        @SuppressWarnings("deprecation") // the operand() style is compact; production code would use RelRule configs
        IndexLookupRule() {
            super(operand(LogicalFilter.class, operand(LogicalTableScan.class, none())), "TellIndexLookupRule");
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            LogicalFilter filter = call.rel(0);
            LogicalTableScan scan = call.rel(1);
            SpikeCatalog.SpikeTable table = scan.getTable().unwrap(SpikeCatalog.SpikeTable.class);
            if (table == null) {
                return;
            }
            List<RexNode> conjuncts = RelOptUtil.conjunctions(filter.getCondition());
            for (Map.Entry<String, List<Integer>> index : table.indexes().entrySet()) {
                List<RexNode> keys = new ArrayList<>();
                List<RexNode> rest = new ArrayList<>(conjuncts);
                for (int column : index.getValue()) {
                    RexNode hit = equalityOn(column, rest);
                    if (hit == null) {
                        break; // composite prefix: stop at the first column without an equality
                    }
                    rest.remove(hit);
                    keys.add(((RexCall) hit).getOperands().get(1));
                }
                if (keys.isEmpty()) {
                    continue;
                }
                RelNode lookup = new TellIndexLookup(scan.getCluster(), scan.getTraitSet().replace(TellRels.TELL),
                        scan.getTable(), index.getKey(), keys);
                RelNode out = rest.isEmpty() ? lookup
                        : new TellFilter(filter.getCluster(), filter.getTraitSet().replace(TellRels.TELL), lookup,
                                RexUtil.composeConjunction(filter.getCluster().getRexBuilder(), rest));
                call.transformTo(out);
            }
        }

        /** The conjunct {@code $column = <literal or ?>} (already normalised so the ref is first), or null. */
        private static RexNode equalityOn(int column, List<RexNode> conjuncts) {
            for (RexNode c : conjuncts) {
                if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                        && call.getOperands().get(0) instanceof RexInputRef ref && ref.getIndex() == column
                        && RexUtil.isConstant(call.getOperands().get(1))) {
                    return c;
                }
            }
            return null;
        }
    }
}
