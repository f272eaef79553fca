package io.tell.sql.plan;

import java.util.List;
import java.util.function.Function;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalCorrelate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalIntersect;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalMinus;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableModify;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.logical.LogicalWindow;

/** The rules that turn logical nodes into Tell operators: one converter per node kind, plus index selection. */
public final class TellRules {
    private TellRules() {
    }

    public static List<RelOptRule> all() {
        return List.of(
                rule(LogicalTableScan.class, s -> new TellTableScan(s.getCluster(), tell(s), s.getTable())),
                rule(LogicalFilter.class, f -> new TellFilter(f.getCluster(), tell(f), in(f.getInput()), f.getCondition())),
                rule(LogicalProject.class, p -> new TellProject(p.getCluster(), tell(p), in(p.getInput()), p.getProjects(),
                        p.getRowType())),
                rule(LogicalJoin.class, j -> new TellJoin(j.getCluster(), tell(j), in(j.getLeft()), in(j.getRight()),
                        j.getCondition(), j.getVariablesSet(), j.getJoinType())),
                rule(LogicalCorrelate.class, c -> new TellCorrelate(c.getCluster(), tell(c), in(c.getLeft()),
                        in(c.getRight()), c.getCorrelationId(), c.getRequiredColumns(), c.getJoinType())),
                rule(LogicalAggregate.class, a -> new TellAggregate(a.getCluster(), tell(a), in(a.getInput()),
                        a.getGroupSet(), a.getGroupSets(), a.getAggCallList())),
                rule(LogicalWindow.class, w -> new TellWindow(w.getCluster(), tell(w), in(w.getInput()), w.getConstants(),
                        w.getRowType(), w.groups)),
                rule(LogicalSort.class, s -> new TellSort(s.getCluster(), tell(s), in(s.getInput()), s.getCollation(),
                        s.offset, s.fetch)),
                rule(LogicalUnion.class, u -> new TellUnion(u.getCluster(), tell(u),
                        u.getInputs().stream().map(TellRules::in).toList(), u.all)),
                rule(LogicalIntersect.class, i -> new TellIntersect(i.getCluster(), tell(i),
                        i.getInputs().stream().map(TellRules::in).toList(), i.all)),
                rule(LogicalMinus.class, m -> new TellMinus(m.getCluster(), tell(m),
                        m.getInputs().stream().map(TellRules::in).toList(), m.all)),
                rule(LogicalValues.class, v -> new TellValues(v.getCluster(), v.getRowType(), v.getTuples(), tell(v))),
                rule(LogicalTableModify.class, m -> new TellTableModify(m.getCluster(), tell(m), m.getTable(),
                        m.getCatalogReader(), in(m.getInput()), m.getOperation(), m.getUpdateColumnList(),
                        m.getSourceExpressionList(), m.isFlattened())),
                IndexScanRule.INSTANCE,
                FilterPastProjectRule.INSTANCE);
    }

    private static RelTraitSet tell(RelNode rel) {
        return rel.getTraitSet().replace(TellRel.TELL);
    }

    private static RelNode in(RelNode input) {
        return RelOptRule.convert(input, input.getTraitSet().replace(TellRel.TELL));
    }

    private static <R extends RelNode> RelOptRule rule(Class<R> type, Function<R, RelNode> convert) {
        return ConverterRule.Config.INSTANCE
                .withConversion(type, Convention.NONE, TellRel.TELL, "Tell" + type.getSimpleName().replace("Logical", "") + "Rule")
                .withRuleFactory(config -> new ConverterRule(config) {
                    @Override
                    public RelNode convert(RelNode rel) {
                        return convert.apply(type.cast(rel));
                    }
                })
                .toRule();
    }
}
