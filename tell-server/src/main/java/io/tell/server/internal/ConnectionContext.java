package io.tell.server.internal;

import io.tell.sql.ProcessingNode;
import java.util.function.Function;

/**
 * What every connection of one server shares: the node (and so its plan cache), how clients
 * authenticate ({@code verifiers} null: trust), the cancel registry.
 */
public record ConnectionContext(ProcessingNode node, Function<String, ScramVerifier> verifiers, CancelRegistry cancels) {
    boolean trust() {
        return verifiers == null;
    }
}
