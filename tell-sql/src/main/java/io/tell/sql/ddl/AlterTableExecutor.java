package io.tell.sql.ddl;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ColumnDef;
import io.tell.sql.ConstraintErrors;
import io.tell.sql.Names;
import io.tell.sql.ProcessingNode;
import io.tell.sql.SequenceDef;
import io.tell.sql.SqlResult;
import io.tell.sql.SqlSession;
import io.tell.sql.TableChange;
import io.tell.sql.TableDef;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs ALTER TABLE online. Changes of the definition alone (columns added with their DEFAULT
 * as what stored rows read, dropped, renamed; defaults; DROP NOT NULL; dropped constraints)
 * apply together as one catalog change: stored rows are never rewritten. A change that must
 * hold for the rows already there stands alone and is published first, so that every writer
 * from then on keeps it, then checked once the writers that began before have ended
 * ({@link OlderWriters}); when the rows break it, it is undone and the ALTER fails with the
 * matching SQLState: SET NOT NULL and ADD COLUMN … NOT NULL without DEFAULT (23502), ADD
 * UNIQUE (23505, filled like CREATE INDEX), ADD FOREIGN KEY (23503), ADD CHECK (23514).
 */
final class AlterTableExecutor {
    private AlterTableExecutor() {
    }

    static void execute(ProcessingNode node, DdlStatement.AlterTable a) {
        if (a.actions().size() > 1 && a.actions().stream().anyMatch(AlterTableExecutor::checksRows)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "ALTER TABLE " + a.table() + ": run SET NOT NULL,"
                    + " ADD COLUMN ... NOT NULL without DEFAULT, ADD UNIQUE and ADD FOREIGN KEY as ALTER TABLE statements"
                    + " of their own");
        }
        CatalogSnapshot cat = node.catalog().snapshot();
        TableDef def = cat.table(a.table()).orElse(null);
        if (def == null) {
            if (a.ifExists()) {
                return;
            }
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "table " + a.table() + " does not exist");
        }
        DdlStatement.AlterAction only = a.actions().get(0);
        if (only instanceof DdlStatement.AddUnique u) {
            String name = u.unique().name() != null ? u.unique().name() : freeName(cat, def.name() + "_UNIQUE_");
            DdlExecutor.createIndex(node, def.name(), name, u.unique().columns(), true, true, false, List.of());
            return;
        }
        if (only instanceof DdlStatement.AddForeignKey f) {
            TableDef checked = node.catalog().alterTable(def.name(), false,
                    List.of(new TableChange.AddForeignKey(f.foreignKey()))); // writers keep it from now on
            try {
                OlderWriters.await(node.transactions());
                checkNoOrphans(node, checked, f.foreignKey().name() != null ? f.foreignKey().name()
                        : checked.foreignKeys().get(checked.foreignKeys().size() - 1).name());
            } catch (TellException e) {
                undo(node, checked.name(), new TableChange.DropConstraint(
                        checked.foreignKeys().get(checked.foreignKeys().size() - 1).name(), true), e);
                throw e;
            }
            return;
        }
        if (only instanceof DdlStatement.AddCheck c) {
            TableDef checked = node.catalog().alterTable(def.name(), false, List.of(new TableChange.AddCheck(c.check())));
            String name = checked.checks().get(checked.checks().size() - 1).name();
            try {
                OlderWriters.await(node.transactions());
                checkRowsPass(node, checked, checked.checks().get(checked.checks().size() - 1));
            } catch (TellException e) {
                undo(node, checked.name(), new TableChange.DropConstraint(name, true), e);
                throw e;
            }
            return;
        }
        List<TableChange> changes = new ArrayList<>();
        for (DdlStatement.AlterAction action : a.actions()) {
            changes.add(change(def, action));
        }
        TableDef altered = node.catalog().alterTable(def.name(), false, changes);
        node.keepIndexesOf(node.catalog().snapshot()); // indexes dropped with a column
        String mustHoldValues = notNullChecked(only, altered);
        if (mustHoldValues != null) {
            try {
                OlderWriters.await(node.transactions());
                checkNoNulls(node, node.catalog().snapshot().table(altered.name()).orElseThrow(), mustHoldValues);
            } catch (TellException e) {
                undo(node, altered.name(), only instanceof DdlStatement.AddColumn
                        ? new TableChange.DropColumn(mustHoldValues, true, false)
                        : new TableChange.SetNullable(mustHoldValues, true), e);
                throw e;
            }
        }
    }

    /** Whether an action must be checked against (or fill) the rows already stored. */
    private static boolean checksRows(DdlStatement.AlterAction action) {
        return switch (action) {
            case DdlStatement.SetNotNull n -> n.notNull();
            case DdlStatement.AddColumn c -> !c.column().nullable() && c.column().defaultValue() == null;
            case DdlStatement.AddUnique u -> true;
            case DdlStatement.AddForeignKey f -> true;
            case DdlStatement.AddCheck c -> true;
            default -> false;
        };
    }

    /** The column whose stored rows must hold values after {@code action}, or null. */
    private static String notNullChecked(DdlStatement.AlterAction action, TableDef altered) {
        if (action instanceof DdlStatement.SetNotNull n && n.notNull()) {
            return altered.columnIndex(n.column()) >= 0 ? n.column() : null;
        }
        if (action instanceof DdlStatement.AddColumn c && checksRows(c)) {
            return c.column().name();
        }
        return null;
    }

    private static TableChange change(TableDef def, DdlStatement.AlterAction action) {
        return switch (action) {
            case DdlStatement.AddColumn c -> {
                if (c.column().owned() != null || c.column().defaultSequence() != null) {
                    throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "ALTER TABLE " + def.name() + " ADD COLUMN "
                            + c.column().name() + ": a column filled from a sequence (identity, SERIAL, nextval) can"
                            + " only be created with its table");
                }
                ColumnDef column = DdlExecutor.column(def.name(), c.column(), new ArrayList<SequenceDef>());
                yield new TableChange.AddColumn(column, fillOf(column), c.references(), c.ifNotExists());
            }
            case DdlStatement.DropColumn d -> new TableChange.DropColumn(d.column(), d.ifExists(), d.cascade());
            case DdlStatement.RenameColumn r -> new TableChange.RenameColumn(r.from(), r.to());
            case DdlStatement.RenameTable r -> new TableChange.RenameTable(r.to());
            case DdlStatement.RenameConstraint r -> new TableChange.RenameConstraint(r.from(), r.to());
            case DdlStatement.SetDefault d -> new TableChange.SetDefault(d.column(), defaultOf(def, d), d.sequence(),
                    d.function());
            case DdlStatement.SetNotNull n -> new TableChange.SetNullable(n.column(), !n.notNull());
            case DdlStatement.SetType t -> new TableChange.SetType(t.column(), t.type());
            case DdlStatement.DropConstraint d -> new TableChange.DropConstraint(d.name(), d.ifExists());
            case DdlStatement.AddUnique u -> throw new IllegalStateException("ADD UNIQUE stands alone");
            case DdlStatement.AddForeignKey f -> throw new IllegalStateException("ADD FOREIGN KEY stands alone");
            case DdlStatement.AddCheck c -> throw new IllegalStateException("ADD CHECK stands alone");
        };
    }

    /** What the rows already stored read in an added column: its DEFAULT, the time of the ALTER for CURRENT_TIMESTAMP and the like. */
    private static Object fillOf(ColumnDef column) {
        if (column.defaultFunction() == null) {
            return column.defaultValue();
        }
        if (column.defaultFunction().equals(ColumnDef.RANDOM_UUID)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "ADD COLUMN " + column.name() + " ... DEFAULT"
                    + " gen_random_uuid(): the rows already stored would each need a value, and ALTER TABLE does not rewrite"
                    + " rows; add the column without it, UPDATE ... SET " + column.name() + " = gen_random_uuid(), then"
                    + " ALTER COLUMN " + column.name() + " SET DEFAULT gen_random_uuid()");
        }
        java.time.LocalDateTime now = java.time.LocalDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        return column.type().coerce(column.type().type() == io.tell.sql.SqlType.DATE ? now.toLocalDate() : now);
    }

    /** SET DEFAULT's literal coerced to the column's type (through ColumnDef, which names the column in errors). */
    private static Object defaultOf(TableDef def, DdlStatement.SetDefault d) {
        if (d.drop() || d.sequence() != null || d.function() != null) {
            return null;
        }
        int i = def.columnIndex(d.column());
        if (i < 0) {
            throw TellException.of(ErrorCode.SQL_INVALID, "column " + d.column() + " of table " + def.name()
                    + " does not exist");
        }
        ColumnDef c = def.columns().get(i);
        return new ColumnDef(c.name(), c.type(), true, d.value()).defaultValue();
    }

    /** NOT_NULL_VIOLATION when a stored row (in a snapshot taken now) holds NULL in {@code column}. */
    private static void checkNoNulls(ProcessingNode node, TableDef def, String column) {
        int at = def.columnIndex(column);
        try (Transaction tx = node.transactions().beginReadOnly()) {
            boolean nulls = node.table(def).scanAll(tx, new int[] {at}).stream().anyMatch(r -> r.values()[0] == null);
            tx.commit();
            if (nulls) {
                throw TellException.of(ErrorCode.NOT_NULL_VIOLATION, "column " + column + " of table " + def.name()
                        + " contains null values");
            }
        }
    }

    /** CHECK_VIOLATION when a stored row (in a snapshot taken now) makes {@code check} FALSE. */
    private static void checkRowsPass(ProcessingNode node, TableDef def, io.tell.sql.CheckDef check) {
        String sql = "SELECT * FROM " + Names.quotedQualified(def.name()) + " WHERE NOT (" + check.condition() + ") FETCH FIRST 1 ROWS ONLY";
        try (SqlSession s = node.openSession(); SqlResult r = s.execute(s.prepare(sql), List.of(), 1, 0)) {
            if (r.next()) {
                throw ConstraintErrors.withDetail(ErrorCode.CHECK_VIOLATION, "check constraint \"" + check.name()
                        + "\" of relation \"" + def.name() + "\" is violated by some row", ConstraintErrors.failingRow(r.row()),
                        null);
            }
        }
    }

    /** FOREIGN_KEY_VIOLATION, PostgreSQL's words, when a row of the table names a key its parent lacks. */
    private static void checkNoOrphans(ProcessingNode node, TableDef child, String fkName) {
        var fk = child.foreignKeys().stream().filter(k -> k.name().equals(fkName)).findFirst().orElseThrow();
        StringBuilder sql = new StringBuilder("SELECT ");
        sql.append(fk.columns().stream().map(c -> "c." + Names.quoted(c)).collect(Collectors.joining(", ")));
        sql.append(" FROM ").append(Names.quotedQualified(child.name())).append(" AS c WHERE ");
        sql.append(fk.columns().stream().map(c -> "c." + Names.quoted(c) + " IS NOT NULL").collect(Collectors.joining(" AND ")));
        sql.append(" AND NOT EXISTS (SELECT 1 FROM ").append(Names.quotedQualified(fk.refTable())).append(" AS p WHERE ");
        List<String> on = new ArrayList<>();
        for (int i = 0; i < fk.columns().size(); i++) {
            on.add("p." + Names.quoted(fk.refColumns().get(i)) + " = c." + Names.quoted(fk.columns().get(i)));
        }
        sql.append(String.join(" AND ", on)).append(") FETCH FIRST 1 ROWS ONLY");
        try (SqlSession s = node.openSession(); SqlResult r = s.execute(s.prepare(sql.toString()), List.of(), 1, 0)) {
            if (r.next()) {
                throw ConstraintErrors.missingParent(child.name(), fk.name(), fk.columns(), r.row(), fk.refTable());
            }
        }
    }

    /** Takes a published change back after its check failed; a failure to do so rides on {@code cause}. */
    private static void undo(ProcessingNode node, String table, TableChange back, TellException cause) {
        try {
            node.catalog().alterTable(table, true, List.of(back));
        } catch (TellException e) {
            cause.addSuppressed(e);
        }
    }

    private static String freeName(CatalogSnapshot cat, String prefix) {
        for (int n = 1; ; n++) {
            if (cat.tableOfIndex(prefix + n).isEmpty()) {
                return prefix + n;
            }
        }
    }
}
