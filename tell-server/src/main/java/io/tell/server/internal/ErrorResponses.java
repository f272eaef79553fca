package io.tell.server.internal;

import io.tell.error.TellException;
import io.tell.sql.SqlStates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The one place where failures become ErrorResponses: Tell's codes through {@link SqlStates}, the protocol's own states as raised. */
final class ErrorResponses {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorResponses.class);

    private ErrorResponses() {
    }

    static void write(BackendWriter out, String severity, Throwable e) {
        switch (e) {
            case PgError p -> out.error(severity, p.sqlState(), p.getMessage());
            case TellException t -> out.error(severity, SqlStates.of(t.code()), t.getMessage());
            default -> {
                LOG.error("internal error answering a client", e);
                out.error(severity, "XX000", "internal error: " + e);
            }
        }
    }
}
