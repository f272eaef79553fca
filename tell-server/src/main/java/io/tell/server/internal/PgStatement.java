package io.tell.server.internal;

import io.tell.sql.ColumnInfo;
import io.tell.sql.PreparedSql;
import io.tell.sql.SqlSession;
import java.util.Arrays;
import java.util.List;

/**
 * A statement as the protocol sees it, prepared once (a Parse, or one statement of a Query):
 * nothing, a command the server runs itself, a COPY, or SQL for Tell with its PostgreSQL
 * parameters ({@code $n}) and the order Tell's {@code ?} take them in.
 */
sealed interface PgStatement {
    record Empty() implements PgStatement {
    }

    record Control(ControlCommand command) implements PgStatement {
    }

    record Copy(CopyCommand command) implements PgStatement {
    }

    /** A query on PostgreSQL's catalogs that the server answers itself; its {@code $n} all arrive as text. */
    record Catalog(CatalogQuery query, PgType[] parameterTypes) implements PgStatement {
    }

    /** {@code order[i]}: which $n (1-based) Tell's i-th {@code ?} takes. */
    record Sql(PreparedSql prepared, int[] order, PgType[] parameterTypes, List<PgColumn> resultColumns) implements PgStatement {
    }

    /**
     * Prepares {@code sql}. With {@code placeholders} (the extended protocol) {@code $n} are
     * parameters, typed by {@code declaredTypes} where the client gave an OID, else as Tell infers them.
     */
    static PgStatement prepare(String sql, int[] declaredTypes, SqlSession session, CatalogSource catalog, boolean placeholders) {
        if (SqlScanner.isBlank(sql)) {
            return new Empty();
        }
        ControlCommand control = ControlCommands.parse(sql);
        if (control != null) {
            return new Control(control);
        }
        CopyCommand copy = CopyCommand.parse(sql);
        if (copy != null) {
            return new Copy(copy);
        }
        CatalogQuery query = CatalogQuery.recognize(sql);
        if (query != null) {
            PgType[] types = new PgType[placeholders ? Math.max(declaredTypes.length, query.parameterCount()) : 0];
            Arrays.fill(types, PgType.TEXT);
            return new Catalog(query, types);
        }
        sql = LiteralCasts.rewrite(sql);
        if (!placeholders) {
            PreparedSql prepared = session.prepare(sql);
            return new Sql(prepared, new int[0], new PgType[0], resultColumns(prepared, catalog));
        }
        SqlScanner.Placeholders p = SqlScanner.placeholders(sql);
        PreparedSql prepared = session.prepare(p.sql());
        PgType[] types = new PgType[Math.max(declaredTypes.length, p.maxIndex())];
        for (int i = 0; i < types.length; i++) {
            PgType declared = i < declaredTypes.length && declaredTypes[i] != 0 ? PgType.ofOid(declaredTypes[i]) : null;
            types[i] = declared != null ? declared : inferred(i + 1, p.order(), prepared.parameters());
        }
        return new Sql(prepared, p.order(), types, resultColumns(prepared, catalog));
    }

    private static List<PgColumn> resultColumns(PreparedSql prepared, CatalogSource catalog) {
        return prepared.columns().stream().map(catalog::column).toList();
    }

    private static PgType inferred(int n, int[] order, List<ColumnInfo> parameters) {
        for (int i = 0; i < order.length && i < parameters.size(); i++) {
            if (order[i] == n) {
                return PgType.of(parameters.get(i));
            }
        }
        return PgType.TEXT; // a $n the statement does not use
    }

    /** The OIDs ParameterDescription reports. */
    default int[] parameterOids() {
        PgType[] types = parameterTypes();
        int[] oids = new int[types.length];
        for (int i = 0; i < oids.length; i++) {
            oids[i] = types[i].oid();
        }
        return oids;
    }

    /** The types of the {@code $n} parameters, in order. */
    default PgType[] parameterTypes() {
        return switch (this) {
            case Sql s -> s.parameterTypes();
            case Catalog c -> c.parameterTypes();
            default -> new PgType[0];
        };
    }

    /** The result columns, all in text format; empty when the statement returns no rows. */
    default List<PgColumn> columns() {
        return switch (this) {
            case Sql s -> s.resultColumns();
            case Catalog c -> CatalogAnswers.columns(c.query());
            case Control c when c.command() instanceof ControlCommand.Show show ->
                    List.of(new PgColumn(SessionParameters.canonical(show.name()), PgType.TEXT, -1, false));
            default -> List.of();
        };
    }

    /** Whether a failed transaction block lets this statement run: COMMIT and ROLLBACK end it, ROLLBACK TO SAVEPOINT repairs it. */
    default boolean endsTransaction() {
        return this instanceof Control c && (c.command() instanceof ControlCommand.Commit
                || c.command() instanceof ControlCommand.Rollback || c.command() instanceof ControlCommand.RollbackTo);
    }
}
