package io.tell.sql.plan;

import io.tell.sql.exec.ExecNode;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelNode;

/**
 * A physical operator of Tell's calling convention. Each is a Calcite core node subclass (so
 * rules, metadata and EXPLAIN work unchanged) that turns itself into an {@link ExecNode}.
 */
public interface TellRel extends RelNode {
    /** The one physical convention; logical nodes have infinite cost, so plans are all-TELL. */
    Convention TELL = new Convention.Impl("TELL", TellRel.class);

    ExecNode implement(Implementor impl);
}
