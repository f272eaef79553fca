package io.tell.sql.plan;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexUtil;

/**
 * Filter(Project(x)) as Project(Filter(x)), the condition rewritten over x's columns, also when
 * it uses a correlation variable. A nested loop's inner side is such a filter over its input
 * (Calcite's JoinToCorrelateRule puts the join condition there); once unused columns are
 * trimmed, that input is a projection of a scan, and Calcite's own transpose rule leaves
 * correlated filters where they are (to keep them decorrelatable — decorrelation is over by
 * the time physical planning runs). Below the projection the filter meets the scan, or merges
 * with the filter on it, and {@link IndexScanRule} can look the outer row's key up. Not past
 * window functions or non-deterministic expressions, whose values a copy would not reproduce.
 */
final class FilterPastProjectRule extends RelOptRule {
    static final FilterPastProjectRule INSTANCE = new FilterPastProjectRule();

    @SuppressWarnings("deprecation")
    private FilterPastProjectRule() {
        super(operand(LogicalFilter.class, operand(LogicalProject.class, any())), "TellFilterPastProjectRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        LogicalProject project = call.rel(1);
        if (!RexUtil.containsCorrelation(filter.getCondition()) || RexOver.containsOver(project.getProjects(), null)
                || !project.getProjects().stream().allMatch(RexUtil::isDeterministic)) {
            return; // uncorrelated filters were moved before physical planning
        }
        RexNode condition = RelOptUtil.pushPastProject(filter.getCondition(), project);
        LogicalFilter below = LogicalFilter.create(project.getInput(), condition);
        call.transformTo(project.copy(project.getTraitSet(), below, project.getProjects(), project.getRowType()));
    }
}
