package io.tell.server.internal;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.SqlSession;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One authenticated connection's SQL conversation: simple Query (several statements, COPY FROM
 * STDIN), and the extended protocol's named and unnamed statements and portals, with errors
 * skipping to Sync. Runs on the connection's own thread, never on an event loop, so it may
 * block on the store.
 */
final class PgSession {
    private static final Logger LOG = LoggerFactory.getLogger(PgSession.class);

    private final SqlSession session;
    private final BackendWriter out;
    private final TransactionBlock tx;
    private final StatementRunner runner;
    private final CatalogSource catalog;
    private final SessionParameters parameters;
    private final Map<String, PgStatement> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    private boolean skipToSync;
    private CopyIn copy;
    private List<String> afterCopy;
    private boolean copyGrouped;

    PgSession(SqlSession session, CatalogSource catalog, SessionParameters parameters, BackendWriter out, boolean readOnly) {
        this.session = session;
        this.out = out;
        this.tx = new TransactionBlock(session, readOnly);
        this.catalog = catalog;
        this.parameters = parameters;
        this.runner = new StatementRunner(session, tx, parameters, out, catalog);
    }

    void handle(FrontendMessage message) {
        if (copy != null) {
            copyMessage(message);
            return;
        }
        switch (message) {
            case FrontendMessage.Query q -> query(q.sql());
            case FrontendMessage.Sync s -> sync();
            case FrontendMessage.Flush f -> out.flush();
            case FrontendMessage.CopyData d -> {
                // ignored outside COPY, as PostgreSQL does: the rest of a COPY that already failed
            }
            case FrontendMessage.CopyDone d -> {
            }
            case FrontendMessage.CopyFail f -> {
            }
            case FrontendMessage.Parse p -> extended(() -> parse(p));
            case FrontendMessage.Bind b -> extended(() -> bind(b));
            case FrontendMessage.Describe d -> extended(() -> describe(d));
            case FrontendMessage.Execute e -> extended(() -> runner.execute(portal(e.portal()), e.maxRows(), true));
            case FrontendMessage.Close c -> extended(() -> close(c));
            default -> throw TellException.of(ErrorCode.PROTOCOL_ERROR, "unexpected " + message.getClass().getSimpleName()
                    + " message after authentication");
        }
    }

    private void query(String sql) {
        List<String> list = SqlScanner.split(sql);
        if (list.isEmpty()) {
            out.empty('I'); // EmptyQueryResponse
            ready();
            return;
        }
        runQueries(list, list.size() > 1);
    }

    /** Runs statements of a Query message in order, stopping at the first error or at a COPY (which resumes them). */
    private void runQueries(List<String> list, boolean grouped) {
        for (int i = 0; i < list.size(); i++) {
            try {
                PgStatement statement = prepare(list.get(i), new int[0], false);
                if (statement instanceof PgStatement.Copy c && c.command().toStdout()) {
                    long rows = CopyOut.run(c.command(), session, out, parameters.statementTimeoutMillis());
                    out.commandComplete("COPY " + rows);
                    continue;
                }
                if (statement instanceof PgStatement.Copy c) {
                    startCopy(c.command(), list.subList(i + 1, list.size()), grouped);
                    return;
                }
                Portal portal = new Portal(statement, List.of(), statement.columns());
                if (!portal.columns.isEmpty()) {
                    out.rowDescription(portal.columns);
                }
                try {
                    runner.execute(portal, 0, grouped);
                } finally {
                    portal.close();
                }
            } catch (RuntimeException e) {
                error(e);
                ready();
                return;
            }
        }
        endImplicit();
        ready();
    }

    /** Prepares a statement; in a failed block only COMMIT and ROLLBACK are even parsed, as in PostgreSQL. */
    private PgStatement prepare(String sql, int[] types, boolean placeholders) {
        if (tx.failed()) {
            ControlCommand c = ControlCommands.parse(sql);
            if (!(c instanceof ControlCommand.Commit || c instanceof ControlCommand.Rollback
                    || c instanceof ControlCommand.RollbackTo)) {
                throw PgError.abortedTransaction();
            }
        }
        return PgStatement.prepare(sql, types, session, catalog, placeholders);
    }

    private void extended(Runnable step) {
        if (skipToSync) {
            return;
        }
        try {
            step.run();
        } catch (RuntimeException e) {
            error(e);
            skipToSync = true;
        }
    }

    private void parse(FrontendMessage.Parse p) {
        if (!p.name().isEmpty() && statements.containsKey(p.name())) {
            throw new PgError("42P05", "prepared statement \"" + p.name() + "\" already exists");
        }
        statements.put(p.name(), prepare(p.sql(), p.parameterTypes(), true));
        out.empty('1'); // ParseComplete
    }

    private void bind(FrontendMessage.Bind b) {
        PgStatement statement = statement(b.statement());
        if (!b.portal().isEmpty() && portals.containsKey(b.portal())) {
            throw new PgError("42P03", "cursor \"" + b.portal() + "\" already exists");
        }
        runner.checkRunnable(statement);
        List<Object> parameters = BindValues.decode(statement, b);
        List<PgColumn> columns = BindValues.resultColumns(statement.columns(), b.resultFormats());
        Portal old = portals.put(b.portal(), new Portal(statement, parameters, columns));
        if (old != null) {
            old.close();
        }
        out.empty('2'); // BindComplete
    }

    private void describe(FrontendMessage.Describe d) {
        List<PgColumn> columns;
        if (d.kind() == 'S') {
            PgStatement statement = statement(d.name());
            out.parameterDescription(statement.parameterOids());
            columns = statement.columns();
        } else {
            columns = portal(d.name()).columns;
        }
        if (columns.isEmpty()) {
            out.empty('n'); // NoData
        } else {
            out.rowDescription(columns);
        }
    }

    private void close(FrontendMessage.Close c) {
        if (c.kind() == 'S') {
            statements.remove(c.name());
        } else {
            Portal p = portals.remove(c.name());
            if (p != null) {
                p.close();
            }
        }
        out.empty('3'); // CloseComplete
    }

    private PgStatement statement(String name) {
        PgStatement s = statements.get(name);
        if (s == null) {
            throw new PgError("26000", "prepared statement \"" + name + "\" does not exist");
        }
        return s;
    }

    private Portal portal(String name) {
        Portal p = portals.get(name);
        if (p == null) {
            throw new PgError("34000", "portal \"" + name + "\" does not exist");
        }
        return p;
    }

    private void sync() {
        skipToSync = false;
        endImplicit();
        if (!tx.explicit()) {
            closePortals(); // portals live as long as their transaction
        }
        ready();
    }

    private void endImplicit() {
        try {
            tx.endImplicit();
        } catch (RuntimeException e) {
            error(e);
        }
    }

    private void startCopy(CopyCommand command, List<String> rest, boolean grouped) {
        copy = new CopyIn(command, session);
        tx.beginImplicit();
        afterCopy = new ArrayList<>(rest);
        copyGrouped = grouped;
        out.copyInResponse(copy.columns());
    }

    private void copyMessage(FrontendMessage message) {
        try {
            switch (message) {
                case FrontendMessage.CopyData d -> copy.data(d.data());
                case FrontendMessage.CopyDone d -> {
                    long rows = copy.finish();
                    copy = null;
                    out.commandComplete("COPY " + rows);
                    runQueries(afterCopy, copyGrouped);
                }
                case FrontendMessage.CopyFail f -> throw new PgError("57014", "COPY from stdin failed: " + f.reason());
                case FrontendMessage.Flush f -> {
                }
                case FrontendMessage.Sync s -> {
                }
                default -> throw new PgError("08P01", "unexpected message type '" + message.getClass().getSimpleName()
                        + "' during COPY from stdin");
            }
        } catch (RuntimeException e) {
            copy = null;
            error(e);
            ready();
        }
    }

    private void ready() {
        out.readyForQuery(tx.status());
    }

    /** ErrorResponse for a failed command, and the transaction consequences PostgreSQL gives it. */
    private void error(RuntimeException e) {
        ErrorResponses.write(out, "ERROR", e);
        try {
            tx.onError();
        } catch (RuntimeException rollbackFailure) {
            LOG.warn("rolling back after an error failed too", rollbackFailure);
        }
    }

    private void closePortals() {
        portals.values().forEach(Portal::close);
        portals.clear();
    }

    /** When the connection ends: an open transaction is rolled back, the session released. */
    void close() {
        closePortals();
        copy = null;
        session.close();
    }
}
