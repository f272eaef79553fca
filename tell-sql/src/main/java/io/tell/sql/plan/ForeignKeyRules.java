package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.CatalogSnapshot;
import io.tell.sql.ConstraintErrors;
import io.tell.sql.ForeignKeyDef;
import io.tell.sql.IndexDef;
import io.tell.sql.Names;
import io.tell.sql.ProcessingNode;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Rows;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The foreign keys a data modification of one table must keep, as the referencing (child) and
 * the referenced (parent) side, under snapshot isolation across nodes:
 * <ul>
 *   <li>a row written with a non-null key needs its parent row, which it then locks (the
 *       parent record joins the write set unchanged), so a transaction deleting that parent or
 *       changing its key conflicts with it, whichever commits first (40001 for the other);</li>
 *   <li>a deleted parent, or one whose key changes, has its referencing rows found (through an
 *       index on the referencing columns, else a scan): NO ACTION and RESTRICT refuse (23503),
 *       CASCADE deletes them (or moves them to the new key) with their own rules, SET NULL
 *       clears their key. A child inserted meanwhile by another transaction locked the parent
 *       this one writes, so one of the two fails.</li>
 * </ul>
 * Two transactions inserting children of one parent at once also conflict on the parent; one
 * retries. Messages are PostgreSQL's.
 */
public final class ForeignKeyRules {
    private final CatalogSnapshot catalog;
    private final ProcessingNode node;
    private final TableDef def;
    private final List<Parent> parents = new ArrayList<>();
    private final List<Child> children = new ArrayList<>();

    /** A key of this table that references a parent. */
    private record Parent(ForeignKeyDef fk, int[] columns, TableDef parent, TableStore store, String parentIndex) {
    }

    /** A key of another table (or this one) that references this table. */
    private record Child(ForeignKeyDef fk, TableDef child, TableStore store, int[] childColumns, int[] referenced,
                         boolean viaPrimaryKey, String childIndex) {
    }

    private ForeignKeyRules(CatalogSnapshot catalog, ProcessingNode node, TableDef def) {
        this.catalog = catalog;
        this.node = node;
        this.def = def;
        for (ForeignKeyDef fk : def.foreignKeys()) {
            TableDef parent = catalog.table(fk.refTable()).orElse(null);
            if (parent != null) {
                parents.add(new Parent(fk, def.columnIndexes(fk.columns()), parent, node.table(parent),
                        uniqueIndex(parent, fk.refColumns())));
            }
        }
        for (TableDef other : catalog.tables()) {
            for (ForeignKeyDef fk : other.foreignKeys()) {
                if (fk.refTable().equals(def.name())) {
                    boolean viaPk = other.primaryKey().size() >= fk.columns().size()
                            && other.primaryKey().subList(0, fk.columns().size()).equals(fk.columns());
                    children.add(new Child(fk, other, node.table(other), other.columnIndexes(fk.columns()),
                            def.columnIndexes(fk.refColumns()), viaPk, viaPk ? null : leadingIndex(other, fk.columns())));
                }
            }
        }
    }

    /** The rules of {@code def}, or null when it has no foreign keys either way. */
    public static ForeignKeyRules of(CatalogSnapshot catalog, ProcessingNode node, TableDef def) {
        ForeignKeyRules r = new ForeignKeyRules(catalog, node, def);
        return r.parents.isEmpty() && r.children.isEmpty() ? null : r;
    }

    /** Before {@code row} is inserted, or {@code old} updated to {@code row}: each changed non-null key has its parent, locked. */
    void checkParents(Transaction tx, Object[] row, Object[] old) {
        for (Parent p : parents) {
            Object[] key = Rows.keyValues(row, p.columns());
            if (key == null || old != null && Arrays.equals(key, Rows.keyValues(old, p.columns()))) {
                continue; // NULL references nothing; an unchanged key was checked when written
            }
            Optional<TableStore.Row> parent = p.store().holding(tx, p.parentIndex(), ordered(key, p));
            if (parent.isEmpty()) {
                throw ConstraintErrors.missingParent(def.name(), p.fk().name(), p.fk().columns(), key, p.parent().name());
            }
            p.store().lock(tx, parent.get().rid());
        }
    }

    /** Before {@code row} is deleted: what references it is refused, deleted or cleared. */
    void beforeDelete(Transaction tx, Object[] row) {
        for (Child c : children) {
            Object[] key = Rows.keyValues(row, c.referenced());
            if (key == null) {
                continue;
            }
            for (TableStore.Row child : referencing(tx, c, key)) {
                switch (c.fk().onDelete()) {
                    case CASCADE -> {
                        ForeignKeyRules inner = of(catalog, node, c.child());
                        if (inner != null) {
                            inner.beforeDelete(tx, child.values());
                        }
                        c.store().delete(tx, child.rid());
                    }
                    case SET_NULL -> setKey(tx, c, child, null);
                    default -> throw stillReferenced(c, key);
                }
            }
        }
    }

    /** Before {@code old} becomes {@code row}: when a referenced key changes, its references follow the ON UPDATE rule. */
    void beforeUpdate(Transaction tx, Object[] old, Object[] row) {
        for (Child c : children) {
            Object[] key = Rows.keyValues(old, c.referenced());
            if (key == null || Arrays.equals(key, Rows.keyValues(row, c.referenced()))) {
                continue;
            }
            for (TableStore.Row child : referencing(tx, c, key)) {
                switch (c.fk().onUpdate()) {
                    case CASCADE -> setKey(tx, c, child, Rows.keyValues(row, c.referenced()));
                    case SET_NULL -> setKey(tx, c, child, null);
                    default -> throw stillReferenced(c, key);
                }
            }
        }
    }

    private void setKey(Transaction tx, Child c, TableStore.Row child, Object[] key) {
        Object[] next = child.values().clone();
        for (int i = 0; i < c.childColumns().length; i++) {
            next[c.childColumns()[i]] = key == null ? null : key[i];
        }
        c.store().update(tx, child.rid(), c.store().validate(next));
    }

    /** The rows of {@code c}'s table whose key equals {@code key}, as {@code tx} sees them. */
    private List<TableStore.Row> referencing(Transaction tx, Child c, Object[] key) {
        TableStore store = c.store();
        List<TableStore.Row> candidates = c.viaPrimaryKey() ? store.range(tx, null, key, true, key, true, Integer.MAX_VALUE)
                : c.childIndex() != null ? store.lookup(tx, c.childIndex(), key) : store.scanAll(tx);
        List<TableStore.Row> out = new ArrayList<>();
        for (TableStore.Row r : candidates) {
            if (Arrays.equals(Rows.keyValues(r.values(), c.childColumns()), key)) {
                out.add(r);
            }
        }
        return out;
    }

    private TellException stillReferenced(Child c, Object[] key) {
        return ConstraintErrors.withDetail(ErrorCode.FOREIGN_KEY_VIOLATION, "update or delete on table \"" + Names.local(def.name())
                + "\" violates foreign key constraint \"" + Names.local(c.fk().name()) + "\" on table \""
                + Names.local(c.child().name()) + "\"",
                ConstraintErrors.key(c.fk().refColumns(), key) + " is still referenced from table \"" + Names.local(c.child().name())
                        + "\".", null);
    }

    /** The parent's key in the order of the unique key it is looked up by. */
    private static Object[] ordered(Object[] key, Parent p) {
        List<String> order = p.parentIndex() == null ? p.parent().primaryKey() : p.parent().index(p.parentIndex()).columns();
        Object[] out = new Object[key.length];
        for (int i = 0; i < key.length; i++) {
            out[order.indexOf(p.fk().refColumns().get(i))] = key[i];
        }
        return out;
    }

    /** The unique index over exactly {@code columns}; null for the primary key. */
    private static String uniqueIndex(TableDef t, List<String> columns) {
        if (!t.primaryKey().isEmpty() && java.util.Set.copyOf(t.primaryKey()).equals(java.util.Set.copyOf(columns))) {
            return null;
        }
        for (IndexDef ix : t.indexes()) {
            if (ix.unique() && java.util.Set.copyOf(ix.columns()).equals(java.util.Set.copyOf(columns))) {
                return ix.name();
            }
        }
        throw TellException.of(ErrorCode.INTERNAL, "no unique key of " + t.name() + " on " + columns);
    }

    /** A readable index of {@code t} whose leading columns are {@code columns}, in order; null when none. */
    private static String leadingIndex(TableDef t, List<String> columns) {
        for (IndexDef ix : t.indexes()) {
            if (!ix.writeOnly() && ix.columns().size() >= columns.size()
                    && ix.columns().subList(0, columns.size()).equals(columns)) {
                return ix.name();
            }
        }
        return null;
    }
}
