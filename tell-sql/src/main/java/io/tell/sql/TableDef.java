package io.tell.sql;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.index.KeyEncoder;
import io.tell.index.KeyType;
import io.tell.txn.TableIndex;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A table as the catalog stores it: its definition and where its data lives. Immutable; DDL
 * makes a new one. Storage names derive from the table id, which the catalog draws from a
 * counter, so a table dropped and created again under the same name never meets old data.
 *
 * @param id           unique forever within a store
 * @param primaryKey   column names, possibly empty (rows are then found by rid or scan only)
 * @param indexes      UNIQUE constraints and secondary indexes, in creation order
 * @param rowDomain    the record domain of the rows, keyed by 8-byte rid
 * @param ridCounter   the counter domain the rids come from (key {@link #RID_COUNTER_KEY})
 * @param pkTree       the B+tree of the primary-key index (null without a primary key)
 * @param ridTree      the B+tree listing every row of a table without a primary key, for full
 *                     scans: one entry per row, all under the empty key, so in rid order (null
 *                     with a primary key, whose tree serves full scans)
 * @param nextIndexNo  the number the next index's tree name will carry
 * @param slots        the values a row holds, in order, once columns were added or dropped
 *                     (ALTER TABLE): the visible columns are the slots not dropped, in order;
 *                     empty while the columns are the slots
 * @param checks       CHECK constraints, in creation order
 */
public record TableDef(long id, String name, List<ColumnDef> columns, List<String> primaryKey,
                       List<IndexDef> indexes, List<ForeignKeyDef> foreignKeys,
                       String rowDomain, String ridCounter, String pkTree, String ridTree,
                       int nextIndexNo, List<Slot> slots, List<CheckDef> checks) {
    public static final String RID_COUNTER_KEY = "rid";

    /**
     * One value of a stored row. A dropped column keeps its slot (rows written before still
     * hold a value there; new rows hold NULL), so the slots of the others never move.
     *
     * @param fill what rows written before the slot was added hold in it (the DEFAULT given
     *             to ADD COLUMN, or NULL)
     */
    public record Slot(ColumnType type, Object fill, boolean dropped) {
    }

    public TableDef {
        Names.check("table", name);
        columns = List.copyOf(columns);
        primaryKey = List.copyOf(primaryKey);
        indexes = List.copyOf(indexes);
        foreignKeys = List.copyOf(foreignKeys);
        slots = java.util.Collections.unmodifiableList(new ArrayList<>(slots)); // fills may be null
        checks = List.copyOf(checks);
        if (!slots.isEmpty() && slots.stream().filter(q -> !q.dropped()).count() != columns.size()) {
            throw TellException.of(ErrorCode.INTERNAL, "table " + name + " has " + columns.size() + " columns but "
                    + slots.stream().filter(q -> !q.dropped()).count() + " visible slots");
        }
    }

    /**
     * Validates {@code spec} and gives it the storage of table {@code id}. Primary-key columns
     * become NOT NULL. Foreign keys are checked against other tables by the catalog.
     */
    static TableDef create(long id, TableSpec spec) {
        String name = Names.check("table", spec.name());
        if (spec.columns().isEmpty()) {
            throw invalid("table " + name + " has no columns");
        }
        Set<String> seen = new HashSet<>();
        for (ColumnDef c : spec.columns()) {
            if (!seen.add(c.name())) {
                throw invalid("table " + name + " has column " + c.name() + " twice");
            }
        }
        checkColumns(name, "PRIMARY KEY", spec.columns(), spec.primaryKey(), true);
        List<ColumnDef> columns = new ArrayList<>();
        for (ColumnDef c : spec.columns()) {
            columns.add(spec.primaryKey().contains(c.name()) && c.nullable()
                    ? c.withNullable(false) : c);
        }
        String base = "tell.t" + id;
        boolean keyed = !spec.primaryKey().isEmpty();
        TableDef def = new TableDef(id, name, columns, spec.primaryKey(), List.of(), List.of(), base, base + ".rid",
                keyed ? base + ".pk" : null, keyed ? null : base + ".rows", 1);
        int unnamed = 1;
        for (TableSpec.IndexSpec ix : spec.indexes()) {
            String ixName = ix.name() != null ? ix.name() : name + (ix.constraint() ? "_UNIQUE_" : "_INDEX_") + unnamed++;
            def = def.withIndex(ixName, ix.columns(), ix.unique(), ix.constraint());
        }
        List<ForeignKeyDef> fks = new ArrayList<>();
        int fkNo = 1;
        for (TableSpec.ForeignKeySpec fk : spec.foreignKeys()) {
            checkColumns(name, "FOREIGN KEY", columns, fk.columns(), false);
            fks.add(new ForeignKeyDef(fk.name() != null ? fk.name() : name + "_FK_" + fkNo++,
                    fk.columns(), fk.refTable(), fk.refColumns(), fk.onDelete(), fk.onUpdate()));
        }
        List<CheckDef> checks = new ArrayList<>();
        int checkNo = 1;
        for (TableSpec.CheckSpec c : spec.checks()) {
            checks.add(new CheckDef(c.name() != null ? c.name() : name + "_CHECK_" + checkNo++, c.condition()));
        }
        return def.withForeignKeys(fks).withChecks(checks);
    }

    public TableDef(long id, String name, List<ColumnDef> columns, List<String> primaryKey, List<IndexDef> indexes,
                    List<ForeignKeyDef> foreignKeys, String rowDomain, String ridCounter, String pkTree, String ridTree,
                    int nextIndexNo) {
        this(id, name, columns, primaryKey, indexes, foreignKeys, rowDomain, ridCounter, pkTree, ridTree, nextIndexNo,
                List.of(), List.of());
    }

    /** The slots of a stored row: {@link #slots}, or one per column while no column was added or dropped. */
    public List<Slot> layout() {
        if (!slots.isEmpty()) {
            return slots;
        }
        return columns.stream().map(c -> new Slot(c.type(), null, false)).toList();
    }

    /** This definition with other columns, keys and slots (the same table and storage). */
    private TableDef with(String newName, List<ColumnDef> cols, List<String> pk, List<IndexDef> ixs,
                          List<ForeignKeyDef> fks, int nextIndex, List<Slot> newSlots) {
        return new TableDef(id, newName, cols, pk, ixs, fks, rowDomain, ridCounter, pkTree, ridTree, nextIndex, newSlots,
                checks);
    }

    /** This table with CHECK constraints {@code next}. */
    TableDef withChecks(List<CheckDef> next) {
        return new TableDef(id, name, columns, primaryKey, indexes, foreignKeys, rowDomain, ridCounter, pkTree, ridTree,
                nextIndexNo, slots, next);
    }

    /**
     * This table, empty, in the fresh storage of table id {@code newId} (TRUNCATE): the same
     * columns, keys and indexes, with trees and domains named after the new id. Rows stored
     * before are written in full, so the slots start over too.
     */
    TableDef withStorage(long newId) {
        String base = "tell.t" + newId;
        List<IndexDef> ixs = indexes.stream().map(ix -> ix.moved(ix.columns(), ix.descending(),
                base + ix.treeName().substring(rowDomain.length()))).toList();
        List<ColumnDef> cols = columns;
        return new TableDef(newId, name, cols, primaryKey, ixs, foreignKeys, base, base + ".rid",
                pkTree != null ? base + ".pk" : null, ridTree != null ? base + ".rows" : null, nextIndexNo, List.of(),
                checks);
    }

    /** This table under another name. */
    TableDef renamed(String newName) {
        return with(newName, columns, primaryKey, indexes, foreignKeys, nextIndexNo, slots);
    }

    /** This table with column {@code c} added last; rows already stored read {@code fill} in it. */
    TableDef withColumnAdded(ColumnDef c, Object fill) {
        if (columnIndex(c.name()) >= 0) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "column " + c.name() + " of table " + name + " already exists");
        }
        List<ColumnDef> cols = new ArrayList<>(columns);
        cols.add(c);
        List<Slot> next = new ArrayList<>(layout());
        next.add(new Slot(c.type(), fill, false));
        return with(name, cols, primaryKey, indexes, foreignKeys, nextIndexNo, next);
    }

    /** This table without column {@code column}; the caller has dropped what depends on it. */
    TableDef withColumnDropped(String column) {
        int at = columnIndex(column);
        List<ColumnDef> cols = new ArrayList<>(columns);
        cols.remove(at);
        List<Slot> next = new ArrayList<>(layout());
        int slot = slotOf(at);
        Slot old = next.get(slot);
        next.set(slot, new Slot(old.type(), old.fill(), true));
        return with(name, cols, primaryKey, indexes, foreignKeys, nextIndexNo, next);
    }

    /** This table with column {@code from} called {@code to} everywhere it is named (keys, indexes, foreign keys). */
    TableDef withColumnRenamed(String from, String to) {
        if (columnIndex(to) >= 0) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "column " + to + " of table " + name + " already exists");
        }
        java.util.function.UnaryOperator<List<String>> rename = l -> l.stream().map(c -> c.equals(from) ? to : c).toList();
        List<ColumnDef> cols = columns.stream().map(c -> c.name().equals(from) ? c.renamed(to) : c).toList();
        List<IndexDef> ixs = indexes.stream().map(ix -> ix.moved(rename.apply(ix.columns()), rename.apply(ix.descending()),
                ix.treeName())).toList();
        List<ForeignKeyDef> fks = foreignKeys.stream().map(fk -> fk.with(fk.name(), rename.apply(fk.columns()),
                fk.refTable(), fk.refTable().equals(name) ? rename.apply(fk.refColumns()) : fk.refColumns())).toList();
        return with(name, cols, rename.apply(primaryKey), ixs, fks, nextIndexNo, slots);
    }

    /** This table with column {@code column} of type {@code type}, in its definition and its slot; the caller checked the change. */
    TableDef withColumnType(String column, ColumnType type) {
        int at = columnIndex(column);
        List<ColumnDef> cols = new ArrayList<>(columns);
        cols.set(at, columns.get(at).withType(type));
        List<Slot> next = slots;
        if (!slots.isEmpty()) {
            next = new ArrayList<>(slots);
            Slot old = slots.get(slotOf(at));
            next.set(slotOf(at), new Slot(type, type.coerce(old.fill()), false));
        }
        return with(name, cols, primaryKey, indexes, foreignKeys, nextIndexNo, next);
    }

    /** This table with column {@code column} replaced by {@code change}'s result (defaults, nullability). */
    TableDef withColumn(String column, java.util.function.UnaryOperator<ColumnDef> change) {
        List<ColumnDef> cols = columns.stream().map(c -> c.name().equals(column) ? change.apply(c) : c).toList();
        return with(name, cols, primaryKey, indexes, foreignKeys, nextIndexNo, slots);
    }

    /** The slot of visible column {@code column}. */
    public int slotOf(int column) {
        if (slots.isEmpty()) {
            return column;
        }
        int visible = -1;
        for (int i = 0; i < slots.size(); i++) {
            if (!slots.get(i).dropped() && ++visible == column) {
                return i;
            }
        }
        throw new IndexOutOfBoundsException("column " + column + " of " + name);
    }

    /** This table with one more index; throws INVALID_DEFINITION or DUPLICATE_OBJECT. */
    TableDef withIndex(String indexName, List<String> cols, boolean unique, boolean constraint) {
        return withIndex(indexName, cols, unique, constraint, false, List.of());
    }

    /** This table with one more index, {@code writeOnly} while CREATE INDEX fills it, its {@code descending} columns declared DESC. */
    TableDef withIndex(String indexName, List<String> cols, boolean unique, boolean constraint, boolean writeOnly,
                       List<String> descending) {
        Names.check("index", indexName);
        checkColumns(name, "index " + indexName, columns, cols, false);
        if (index(indexName) != null) {
            throw TellException.of(ErrorCode.DUPLICATE_OBJECT, "index " + indexName + " already exists on table " + name);
        }
        List<IndexDef> next = new ArrayList<>(indexes);
        next.add(new IndexDef(indexName, cols, unique, constraint, rowDomain + ".i" + nextIndexNo, writeOnly, descending));
        return with(name, columns, primaryKey, next, foreignKeys, nextIndexNo + 1, slots);
    }

    /** This table with index {@code indexName} readable by queries. */
    TableDef withIndexPublished(String indexName) {
        List<IndexDef> next = indexes.stream().map(ix -> ix.name().equals(indexName) ? ix.published() : ix).toList();
        return with(name, columns, primaryKey, next, foreignKeys, nextIndexNo, slots);
    }

    /** This table with index {@code from} called {@code to} (the same tree). */
    TableDef withIndexRenamed(String from, String to) {
        List<IndexDef> next = indexes.stream().map(ix -> ix.name().equals(from) ? ix.renamed(to) : ix).toList();
        return with(name, columns, primaryKey, next, foreignKeys, nextIndexNo, slots);
    }

    TableDef withoutIndex(String indexName) {
        List<IndexDef> next = new ArrayList<>(indexes);
        next.removeIf(ix -> ix.name().equals(indexName));
        return with(name, columns, primaryKey, next, foreignKeys, nextIndexNo, slots);
    }

    TableDef withForeignKeys(List<ForeignKeyDef> fks) {
        return with(name, columns, primaryKey, indexes, fks, nextIndexNo, slots);
    }

    /** The names of every B+tree of this table: primary key or rid tree, then the indexes. */
    public List<String> treeNames() {
        List<String> out = new ArrayList<>();
        out.add(pkTree != null ? pkTree : ridTree);
        for (IndexDef ix : indexes) {
            out.add(ix.treeName());
        }
        return out;
    }

    /** Every domain this table's data may occupy: rows, the rid counter's and, per tree, its records and unique claims. */
    public Set<String> storageDomains() {
        Set<String> out = new HashSet<>();
        out.add(rowDomain);
        out.add(ridCounter);
        for (String tree : treeNames()) {
            out.addAll(TableIndex.domainsOf(tree));
        }
        return out;
    }

    /** The name of the primary key's constraint ({@code T_PK}), as errors and the catalogs give it. */
    public String primaryKeyName() {
        return name + "_PK";
    }

    /** The primary key or UNIQUE index over exactly {@code cols} (what a foreign key references); null for none. */
    public String keyName(List<String> cols) {
        if (primaryKey.equals(cols)) {
            return primaryKeyName();
        }
        return indexes.stream().filter(ix -> ix.unique() && ix.columns().equals(cols)).map(IndexDef::name).findFirst()
                .orElse(null);
    }

    /** The position of column {@code column}, or -1. */
    public int columnIndex(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The positions of {@code cols}. */
    public int[] columnIndexes(List<String> cols) {
        return cols.stream().mapToInt(this::columnIndex).toArray();
    }

    /** The encoding of index keys over {@code cols}. */
    public KeyEncoder keyEncoder(List<String> cols) {
        List<KeyType> types = new ArrayList<>();
        for (String c : cols) {
            types.add(columns.get(columnIndex(c)).type().type().keyType());
        }
        return KeyEncoder.of(types);
    }

    /** The types of the columns, in order: the row codec's schema. */
    public List<ColumnType> columnTypes() {
        return columns.stream().map(ColumnDef::type).toList();
    }

    public IndexDef index(String indexName) {
        return indexes.stream().filter(ix -> ix.name().equals(indexName)).findFirst().orElse(null);
    }

    private static void checkColumns(String table, String what, List<ColumnDef> columns, List<String> cols,
                                     boolean emptyAllowed) {
        if (cols.isEmpty() && !emptyAllowed) {
            throw invalid(what + " of table " + table + " names no columns");
        }
        Set<String> seen = new HashSet<>();
        for (String c : cols) {
            if (columns.stream().noneMatch(d -> d.name().equals(c))) {
                throw invalid(what + " of table " + table + " names unknown column " + c);
            }
            if (!seen.add(c)) {
                throw invalid(what + " of table " + table + " names column " + c + " twice");
            }
        }
    }

    private static TellException invalid(String message) {
        return TellException.of(ErrorCode.INVALID_DEFINITION, message);
    }
}
