package io.tell.spike;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.TableModify;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;

/**
 * Spike: recognises single-row primary-key statements on the converted logical tree, before
 * any cost-based planning. Returns a description of the key-value plan, or null.
 */
final class FastPath {
    private FastPath() {
    }

    static String recognise(RelNode rel) {
        if (rel instanceof TableModify modify) {
            RelNode in = modify.getInput();
            if (modify.isInsert()) {
                // INSERT ... VALUES (one row), possibly under a Project that casts or adds defaults.
                RelNode src = in instanceof Project p ? p.getInput() : in;
                return src instanceof Values v && v.getTuples().size() == 1
                        ? "KeyPut(" + name(modify) + ")" : null;
            }
            // UPDATE/DELETE: source is Project?(Filter(Scan)) with the PK fully bound.
            List<RexNode> key = pkKey(in instanceof Project p ? p.getInput() : in);
            return key == null ? null : "Key" + modify.getOperation() + "(" + name(modify) + ", pk=" + key + ")";
        }
        RelNode body = rel instanceof Project p ? p.getInput() : rel;
        List<RexNode> key = pkKey(body);
        return key == null ? null : "KeyGet(" + body.getInput(0).getTable().getQualifiedName() + ", pk=" + key + ")";
    }

    private static String name(TableModify m) {
        return String.valueOf(m.getTable().getQualifiedName());
    }

    /** For Filter(Scan) whose conjuncts are exactly "pk column = constant" for every PK column: the constants. */
    private static List<RexNode> pkKey(RelNode rel) {
        if (!(rel instanceof Filter f) || !(f.getInput() instanceof TableScan scan)) {
            return null;
        }
        SpikeCatalog.SpikeTable table = scan.getTable().unwrap(SpikeCatalog.SpikeTable.class);
        if (table == null) {
            return null;
        }
        List<Integer> pk = table.indexes().get("T_PK");
        List<RexNode> conjuncts = RelOptUtil.conjunctions(f.getCondition());
        if (conjuncts.size() != pk.size()) {
            return null;
        }
        List<RexNode> key = new ArrayList<>();
        for (int column : pk) {
            RexNode value = null;
            for (RexNode c : conjuncts) {
                if (c.getKind() == SqlKind.EQUALS && c instanceof RexCall call
                        && call.getOperands().get(0) instanceof RexInputRef ref && ref.getIndex() == column
                        && RexUtil.isConstant(call.getOperands().get(1))) {
                    value = call.getOperands().get(1);
                }
            }
            if (value == null) {
                return null;
            }
            key.add(value);
        }
        return key;
    }
}
