package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Works out what an ALTER TABLE does to a catalog snapshot: the table's new definition and
 * those of other tables whose foreign keys name it (renames, CASCADE), sequences it owns that
 * follow or go. Nothing is written here; {@link Catalog#alterTable} publishes the result as
 * one catalog change. Every error names the object and leaves the catalog as it was.
 */
final class TableAlteration {
    private final CatalogSnapshot cat;
    /** Definitions as changed so far, by their name before the change. */
    private final Map<String, TableDef> defs = new LinkedHashMap<>();
    private final Map<String, SequenceDef> sequences;
    private final List<SequenceDef> droppedSequences = new ArrayList<>();
    private String table;

    TableAlteration(CatalogSnapshot cat, TableDef def) {
        this.cat = cat;
        this.table = def.name();
        cat.tableMap().forEach(defs::put);
        this.sequences = new HashMap<>(cat.sequenceMap());
    }

    TableDef def() {
        return defs.get(original());
    }

    /** The name the altered table had in the snapshot (its key in {@link #defs}). */
    private String original() {
        for (Map.Entry<String, TableDef> e : defs.entrySet()) {
            if (e.getValue().name().equals(table)) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("table " + table + " is gone");
    }

    private void put(TableDef def) {
        defs.put(original(), def);
    }

    void apply(TableChange change) {
        TableDef t = def();
        if (change instanceof TableChange.DropColumn || change instanceof TableChange.RenameColumn
                || change instanceof TableChange.RenameTable || change instanceof TableChange.SetType) {
            List<ViewDef> views = cat.viewsOn(t.name());
            if (!views.isEmpty()) {
                throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop, rename or retype columns of table "
                        + t.name() + ", or rename it, because view " + views.get(0).name() + " reads it");
            }
        }
        switch (change) {
            case TableChange.AddColumn a -> addColumn(t, a);
            case TableChange.DropColumn d -> {
                if (t.columnIndex(d.column()) >= 0) {
                    dropColumn(t, d.column(), d.cascade());
                } else if (!d.ifExists()) {
                    throw undefinedColumn(t, d.column());
                }
            }
            case TableChange.RenameColumn r -> renameColumn(t, r.from(), r.to());
            case TableChange.RenameTable r -> renameTable(t, r.to());
            case TableChange.RenameConstraint r -> renameConstraint(t, r.from(), r.to());
            case TableChange.SetType s -> setType(t, column(t, s.column()), s.type());
            case TableChange.SetDefault d -> put(t.withColumn(column(t, d.column()).name(), c -> {
                if (c.identity() != ColumnDef.Identity.NONE) {
                    throw invalid("column " + c.name() + " of table " + t.name() + " is an identity column: its values"
                            + " come from its sequence");
                }
                if (d.sequence() != null && !sequences.containsKey(d.sequence())) {
                    throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "sequence " + d.sequence() + " does not exist");
                }
                if (d.function() != null) {
                    return new ColumnDef(c.name(), c.type(), c.nullable(), null).withDefaultFunction(d.function());
                }
                return d.sequence() != null ? c.withSequence(d.sequence(), ColumnDef.Identity.NONE)
                        : new ColumnDef(c.name(), c.type(), c.nullable(), d.value());
            }));
            case TableChange.SetNullable n -> {
                ColumnDef c = column(t, n.column());
                if (n.nullable() && t.primaryKey().contains(c.name())) {
                    throw invalid("column " + c.name() + " of table " + t.name() + " is in its primary key");
                }
                if (n.nullable() && c.identity() != ColumnDef.Identity.NONE) {
                    throw invalid("column " + c.name() + " of table " + t.name() + " is an identity column");
                }
                put(t.withColumn(c.name(), x -> x.withNullable(n.nullable())));
            }
            case TableChange.AddForeignKey f -> addForeignKey(t, f.foreignKey());
            case TableChange.AddCheck c -> {
                String name = c.check().name() != null ? c.check().name() : freeName(t, t.name() + "_CHECK_");
                if (constraintNamed(t, name)) {
                    throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "constraint " + name + " of table " + t.name()
                            + " already exists");
                }
                CheckDef check = new CheckDef(name, c.check().condition());
                List<CheckDef> checks = new ArrayList<>(t.checks());
                checks.add(check);
                TableDef next = t.withChecks(checks);
                Checks.validate(cat.with(next), next, check);
                put(next);
            }
            case TableChange.DropConstraint d -> dropConstraint(t, d);
        }
    }

    /**
     * Widens column {@code c} to {@code type} when its stored values already have that form
     * ({@link ColumnType#storedAs}); an integer in a key, an index or a foreign key keeps its
     * width, which its index entries encode.
     */
    private void setType(TableDef t, ColumnDef c, ColumnType type) {
        if (c.type().equals(type)) {
            return;
        }
        if (!c.type().storedAs(type)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "changing column " + c.name() + " of table " + t.name()
                    + " from " + c.type() + " to " + type + " would rewrite its rows, which ALTER TABLE does not do;"
                    + " it can widen an integer, lengthen a VARCHAR or VARBINARY, or give a DECIMAL more digits at the same scale");
        }
        if (c.type().type() != type.type()) { // integers: keys hold them at their width
            boolean keyed = t.primaryKey().contains(c.name())
                    || t.indexes().stream().anyMatch(ix -> ix.columns().contains(c.name()))
                    || t.foreignKeys().stream().anyMatch(fk -> fk.columns().contains(c.name()))
                    || defs.values().stream().anyMatch(o -> o.foreignKeys().stream()
                            .anyMatch(fk -> fk.refTable().equals(t.name()) && fk.refColumns().contains(c.name())));
            if (keyed) {
                throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "column " + c.name() + " of table " + t.name()
                        + " is in a key, an index or a foreign key, whose entries hold it as " + c.type()
                        + ": it cannot become " + type + " without rewriting them");
            }
        }
        put(t.withColumnType(c.name(), type));
    }

    private void addColumn(TableDef t, TableChange.AddColumn a) {
        if (t.columnIndex(a.column().name()) >= 0) {
            if (a.ifNotExists()) {
                return;
            }
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "column " + a.column().name() + " of table " + t.name()
                    + " already exists");
        }
        TableDef next = t.withColumnAdded(a.column(), a.fill());
        put(next);
        for (TableSpec.ForeignKeySpec fk : a.references()) {
            addForeignKey(next, fk);
        }
    }

    private void addForeignKey(TableDef t, TableSpec.ForeignKeySpec spec) {
        String name = spec.name() != null ? spec.name() : freeName(t, t.name() + "_FK_");
        if (constraintNamed(t, name)) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "constraint " + name + " of table " + t.name()
                    + " already exists");
        }
        for (String c : spec.columns()) {
            column(t, c);
        }
        List<ForeignKeyDef> fks = new ArrayList<>(t.foreignKeys());
        fks.add(Catalog.checkForeignKey(t, new ForeignKeyDef(name, spec.columns(), spec.refTable(), spec.refColumns(),
                spec.onDelete(), spec.onUpdate()),
                n -> defs.values().stream().filter(d -> d.name().equals(n)).findFirst().orElse(null)));
        put(t.withForeignKeys(fks));
    }

    private void dropColumn(TableDef t, String column, boolean cascade) {
        if (t.primaryKey().contains(column)) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot drop column " + column + " of table "
                    + t.name() + ": it is in the primary key, which stores the table's rows");
        }
        if (t.columns().size() == 1) {
            throw invalid("cannot drop column " + column + ": it is the only column of table " + t.name());
        }
        for (TableDef other : List.copyOf(defs.values())) {
            if (other.id() == t.id()) {
                continue;
            }
            for (ForeignKeyDef fk : other.foreignKeys()) {
                if (fk.refTable().equals(t.name()) && fk.refColumns().contains(column)) {
                    if (!cascade) {
                        throw TellException.of(ErrorCode.DEPENDENT_OBJECTS, "cannot drop column " + column + " of table "
                                + t.name() + " because foreign key " + fk.name() + " of table " + other.name()
                                + " references it (use CASCADE to drop that too)");
                    }
                    defs.put(keyOf(other), other.withForeignKeys(other.foreignKeys().stream()
                            .filter(k -> k != fk).toList()));
                }
            }
        }
        TableDef next = t;
        for (IndexDef ix : t.indexes()) {
            if (ix.columns().contains(column)) {
                next = next.withoutIndex(ix.name());
            }
        }
        next = next.withForeignKeys(next.foreignKeys().stream().filter(fk -> !fk.columns().contains(column)).toList());
        next = next.withChecks(next.checks().stream().filter(c -> !Checks.mentions(c, column)).toList());
        for (SequenceDef q : List.copyOf(sequences.values())) {
            if (t.name().equals(q.ownerTable()) && column.equals(q.ownerColumn())) {
                sequences.remove(q.name());
                droppedSequences.add(q);
            }
        }
        put(next.withColumnDropped(column));
    }

    private void renameColumn(TableDef t, String from, String to) {
        column(t, from);
        Names.check("column", to);
        TableDef next = t.withColumnRenamed(from, to);
        next = next.withChecks(t.checks().stream().map(c -> Checks.mentions(c, from) ? Checks.renamed(c, from, to) : c).toList());
        for (CheckDef c : next.checks()) {
            Checks.validate(cat.with(next), next, c);
        }
        put(next);
        for (TableDef other : List.copyOf(defs.values())) {
            if (other.id() != t.id() && other.foreignKeys().stream().anyMatch(fk -> fk.refTable().equals(t.name()))) {
                defs.put(keyOf(other), other.withForeignKeys(other.foreignKeys().stream().map(fk -> fk.refTable()
                        .equals(t.name()) ? fk.with(fk.name(), fk.columns(), fk.refTable(),
                        fk.refColumns().stream().map(c -> c.equals(from) ? to : c).toList()) : fk).toList()));
            }
        }
        followOwner(q -> t.name().equals(q.ownerTable()) && from.equals(q.ownerColumn())
                ? owned(q, q.ownerTable(), to) : q);
    }

    private void renameTable(TableDef t, String to) {
        Names.check("table", to);
        if (to.equals(t.name())) {
            return;
        }
        if (defs.values().stream().anyMatch(d -> d.name().equals(to)) || sequences.containsKey(to)) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "relation " + to + " already exists");
        }
        String from = t.name();
        put(t.renamed(to));
        table = to;
        for (TableDef other : List.copyOf(defs.values())) {
            if (other.foreignKeys().stream().anyMatch(fk -> fk.refTable().equals(from))) {
                defs.put(keyOf(other), other.withForeignKeys(other.foreignKeys().stream().map(fk -> fk.refTable()
                        .equals(from) ? fk.with(fk.name(), fk.columns(), to, fk.refColumns()) : fk).toList()));
            }
        }
        followOwner(q -> from.equals(q.ownerTable()) ? owned(q, to, q.ownerColumn()) : q);
    }

    private void renameConstraint(TableDef t, String from, String to) {
        if (from.equals(to)) {
            return;
        }
        Names.check("constraint", to);
        if (constraintNamed(t, to) || cat.tableOfIndex(to).isPresent()) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "constraint " + to + " of table " + t.name() + " already exists");
        }
        IndexDef ix = t.index(from);
        if (ix != null && ix.constraint()) {
            put(t.withIndexRenamed(from, to));
        } else if (Checks.names(t).contains(from)) {
            put(t.withChecks(t.checks().stream().map(c -> c.name().equals(from) ? new CheckDef(to, c.condition()) : c).toList()));
        } else if (t.foreignKeys().stream().anyMatch(fk -> fk.name().equals(from))) {
            put(t.withForeignKeys(t.foreignKeys().stream().map(fk -> fk.name().equals(from)
                    ? fk.with(to, fk.columns(), fk.refTable(), fk.refColumns()) : fk).toList()));
        } else if (from.equals(t.primaryKeyName()) && !t.primaryKey().isEmpty()) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "the primary key of table " + t.name() + " is always "
                    + t.primaryKeyName() + " and cannot be renamed");
        } else {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "constraint " + from + " of table " + t.name()
                    + " does not exist" + (ix != null ? " (" + from + " is an index)" : ""));
        }
    }

    private void dropConstraint(TableDef t, TableChange.DropConstraint d) {
        IndexDef ix = t.index(d.name());
        if (ix != null && ix.constraint()) {
            put(t.withoutIndex(d.name()));
        } else if (Checks.names(t).contains(d.name())) {
            put(t.withChecks(t.checks().stream().filter(c -> !c.name().equals(d.name())).toList()));
        } else if (t.foreignKeys().stream().anyMatch(fk -> fk.name().equals(d.name()))) {
            put(t.withForeignKeys(t.foreignKeys().stream().filter(fk -> !fk.name().equals(d.name())).toList()));
        } else if (d.name().equals(t.primaryKeyName()) && !t.primaryKey().isEmpty()) {
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, "cannot drop the primary key of table " + t.name()
                    + ": it stores the table's rows");
        } else if (!d.ifExists()) {
            throw TellException.of(ErrorCode.UNDEFINED_OBJECT, "constraint " + d.name() + " of table " + t.name()
                    + " does not exist" + (ix != null ? " (" + d.name() + " is an index: DROP INDEX it)" : ""));
        }
    }

    /** Replaces every sequence by {@code change}'s result (a rename follows its owner). */
    private void followOwner(UnaryOperator<SequenceDef> change) {
        for (SequenceDef q : List.copyOf(sequences.values())) {
            SequenceDef next = change.apply(q);
            if (!next.equals(q)) {
                sequences.put(q.name(), next);
            }
        }
    }

    private static SequenceDef owned(SequenceDef q, String ownerTable, String ownerColumn) {
        return new SequenceDef(q.name(), q.id(), q.start(), q.increment(), q.min(), q.max(), q.cache(), ownerTable,
                ownerColumn);
    }

    /** The tables whose definitions changed, by their names before. */
    Map<String, TableDef> changedTables() {
        Map<String, TableDef> out = new LinkedHashMap<>();
        defs.forEach((name, def) -> {
            if (!def.equals(cat.tableMap().get(name))) {
                out.put(name, def);
            }
        });
        return out;
    }

    /** Sequences whose definitions changed (owner renamed). */
    List<SequenceDef> changedSequences() {
        return sequences.values().stream().filter(q -> !q.equals(cat.sequenceMap().get(q.name()))).toList();
    }

    List<SequenceDef> droppedSequences() {
        return droppedSequences;
    }

    private String keyOf(TableDef def) {
        for (Map.Entry<String, TableDef> e : defs.entrySet()) {
            if (e.getValue().id() == def.id()) {
                return e.getKey();
            }
        }
        throw new IllegalStateException("table " + def.name() + " is gone");
    }

    private boolean constraintNamed(TableDef t, String name) {
        return t.index(name) != null || t.foreignKeys().stream().anyMatch(fk -> fk.name().equals(name))
                || name.equals(t.primaryKeyName()) || Checks.names(t).contains(name);
    }

    private String freeName(TableDef t, String prefix) {
        for (int n = 1; ; n++) {
            if (!constraintNamed(t, prefix + n)) {
                return prefix + n;
            }
        }
    }

    private static ColumnDef column(TableDef t, String name) {
        int i = t.columnIndex(name);
        if (i < 0) {
            throw undefinedColumn(t, name);
        }
        return t.columns().get(i);
    }

    private static TellException undefinedColumn(TableDef t, String name) {
        return TellException.of(ErrorCode.SQL_INVALID, "column " + name + " of table " + t.name() + " does not exist");
    }

    private static TellException invalid(String message) {
        return TellException.of(ErrorCode.INVALID_DEFINITION, message);
    }
}
