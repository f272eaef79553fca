package io.tell.server.internal;

import io.tell.sql.PreparedSql;
import io.tell.sql.SchemaPath;
import io.tell.sql.SqlSession;
import java.util.Locale;
import java.util.Map;

/**
 * Runs statements for both query protocols: Tell SQL through the {@link SqlSession}, control
 * commands on the {@link TransactionBlock} and {@link SessionParameters}; writes DataRows and
 * CommandComplete, or PortalSuspended when a row limit stops a query.
 */
final class StatementRunner {
    private final SqlSession session;
    private final TransactionBlock tx;
    private final SessionParameters parameters;
    private final BackendWriter out;
    private final CatalogSource catalog;

    StatementRunner(SqlSession session, TransactionBlock tx, SessionParameters parameters, BackendWriter out,
                    CatalogSource catalog) {
        this.session = session;
        this.tx = tx;
        this.parameters = parameters;
        this.out = out;
        this.catalog = catalog;
        session.setSchemaPath(SchemaPath.parse(parameters.get("search_path"))); // the client may send one at startup
    }

    /** 25P02 unless {@code statement} may run in the current transaction state. */
    void checkRunnable(PgStatement statement) {
        if (tx.failed() && !statement.endsTransaction()) {
            throw PgError.abortedTransaction();
        }
    }

    /**
     * Runs or continues {@code portal}, sending at most {@code maxRows} rows (0: all). With
     * {@code grouped}, a write opens an implicit transaction that the caller ends.
     */
    void execute(Portal portal, int maxRows, boolean grouped) {
        checkRunnable(portal.statement);
        switch (portal.statement) {
            case PgStatement.Empty e -> out.empty('I');
            case PgStatement.Control c -> {
                control(c.command(), portal);
                portal.done = true;
            }
            case PgStatement.Copy c -> throw new PgError("0A000", "COPY FROM STDIN runs in a simple Query message only");
            case PgStatement.Sql s -> sql(s.prepared(), portal, maxRows, grouped);
            case PgStatement.Catalog c -> catalogRows(c.query(), portal, maxRows);
        }
    }

    /** A catalog query's rows, computed when the portal first runs and sent as the row limit allows. */
    private void catalogRows(CatalogQuery query, Portal portal, int maxRows) {
        if (portal.catalogRows == null) {
            portal.catalogRows = CatalogAnswers.rows(query, catalog.catalog(), catalog.database(), session.schemaPath(),
                    portal.parameters).iterator();
        }
        long sent = 0;
        while (portal.catalogRows.hasNext() && (maxRows <= 0 || sent < maxRows)) {
            out.dataRow(portal.columns, portal.catalogRows.next());
            sent++;
        }
        if (portal.catalogRows.hasNext()) {
            out.empty('s'); // PortalSuspended
        } else {
            portal.close();
            out.commandComplete("SELECT " + sent);
        }
    }

    private void sql(PreparedSql prepared, Portal portal, int maxRows, boolean grouped) {
        if (portal.done) {
            out.commandComplete(CommandTags.of(prepared, 0));
            return;
        }
        if (portal.result == null) {
            if (grouped && prepared.writes()) {
                tx.beginImplicit();
            }
            portal.result = session.execute(prepared, portal.parameters, 0, parameters.statementTimeoutMillis());
            if (!portal.result.hasRows()) {
                long count = portal.result.updateCount();
                portal.close();
                out.commandComplete(CommandTags.of(prepared, count));
                return;
            }
            portal.pending = portal.result.next();
        }
        long sent = 0;
        while (portal.pending && (maxRows <= 0 || sent < maxRows)) {
            out.dataRow(portal.columns, portal.result.row());
            sent++;
            portal.pending = portal.result.next();
        }
        if (portal.pending) {
            out.empty('s'); // PortalSuspended
        } else {
            portal.close();
            out.commandComplete("SELECT " + sent);
        }
    }

    private void control(ControlCommand command, Portal portal) {
        String tag = command.tag();
        switch (command) {
            case ControlCommand.Begin b -> tx.begin(b.modes());
            case ControlCommand.Commit c -> tag = tx.commit();
            case ControlCommand.Rollback r -> tx.rollback();
            case ControlCommand.Savepoint s -> tx.savepoint(s.name());
            case ControlCommand.RollbackTo r -> tx.rollbackTo(r.name());
            case ControlCommand.Release r -> tx.release(r.name());
            case ControlCommand.SetTransaction s -> tx.setModes(s.modes(), s.session());
            case ControlCommand.Set s -> set(s.name(), s.value());
            case ControlCommand.Reset r -> {
                if (r.name() == null) {
                    parameters.resetAll();
                    parameters.reported().forEach(out::parameterStatus);
                } else {
                    parameters.reset(r.name());
                    report(SessionParameters.canonical(r.name()));
                }
                session.setSchemaPath(SchemaPath.parse(parameters.get("search_path")));
            }
            case ControlCommand.Show s -> out.dataRow(portal.columns, new Object[] {show(s.name())});
            case ControlCommand.Maintenance m -> {
                // nothing to do: see ControlCommand.Maintenance
            }
        }
        out.commandComplete(tag);
    }

    private void set(String name, String value) {
        String key = SessionParameters.canonical(name);
        if (key.equals("transaction_isolation")) {
            tx.setModes(new ControlCommand.Modes(level(value), null), false);
        } else if (key.equals("transaction_read_only")) {
            tx.setModes(new ControlCommand.Modes(null, isOn(value)), false);
        } else if (key.equals("default_transaction_isolation")) {
            parameters.set(key, level(value));
            tx.setModes(new ControlCommand.Modes(level(value), null), true);
        } else if (parameters.set(key, value) != null) {
            report(key);
        }
        if (key.equals("search_path")) {
            session.setSchemaPath(SchemaPath.parse(parameters.get(key)));
        }
    }

    private void report(String key) {
        Map<String, String> reported = parameters.reported();
        if (reported.containsKey(key)) {
            out.parameterStatus(key, reported.get(key));
        }
    }

    private String show(String name) {
        String key = SessionParameters.canonical(name);
        return switch (key) {
            case "transaction_isolation" -> tx.isolation();
            case "transaction_read_only" -> tx.readOnly() ? "on" : "off";
            default -> parameters.get(key);
        };
    }

    private static String level(String value) {
        String level = value.strip().toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
        return switch (level) {
            case "serializable", "repeatable read", "read committed", "read uncommitted" -> level;
            default -> throw new PgError("22023", "invalid isolation level: " + value);
        };
    }

    private static boolean isOn(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "on", "true", "yes", "1" -> true;
            case "off", "false", "no", "0" -> false;
            default -> throw new PgError("22023", "expected on or off, got " + value);
        };
    }
}
