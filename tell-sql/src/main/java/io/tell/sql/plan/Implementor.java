package io.tell.sql.plan;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.sql.ProcessingNode;
import io.tell.sql.TableDef;
import io.tell.sql.TableStore;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.ExecContext;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;

/**
 * Builds the executable tree of a physical plan once. Knows the processing node (for table
 * access), whether the statement is {@code SELECT ... FOR UPDATE}, and which scan feeds a
 * data modification its target rows (that scan publishes each row's rid).
 */
public final class Implementor {
    private final ProcessingNode node;
    private final boolean forUpdate;
    private RelNode ridSource;
    /** The columns the data modification uses of its rows (ascending); null: all. */
    private int[] ridSourceReads;
    private RowReturner returner;
    private Upsert upsert;
    private RowChecks checks;
    private ForeignKeyRules foreignKeys;
    /** Of the plan whose root was visited first; made then. */
    private SharedSubplans shared;
    private final Map<RelNode, Object> keys = new IdentityHashMap<>();
    private final Map<RelNode, Shareable> shareable = new IdentityHashMap<>();

    /** What a join computes once per opening from one input ({@code compute}), while {@code streamed}, its other input, streams past. */
    record Shareable(Function<ExecContext, ?> compute, RelNode streamed) {
    }

    /** What a data modification with RETURNING makes of each row it changed. */
    @FunctionalInterface
    public interface RowReturner {
        Object[] row(Object[] changed, io.tell.sql.exec.ExecContext ctx);
    }

    public Implementor(ProcessingNode node, boolean forUpdate) {
        this.node = node;
        this.forUpdate = forUpdate;
    }

    /**
     * {@code rel}'s executable node; the first call gets the plan's root. A root whose rows
     * come from a pipeline over a full scan (joined rows, unsorted and unaggregated) may run
     * in parts ({@link PartedInput#gathered}); sorts and aggregates below the root run their own.
     */
    public ExecNode visit(RelNode rel) {
        boolean root = shared == null;
        if (root) {
            shared = new SharedSubplans(rel);
        }
        if (!(rel instanceof TellRel t)) {
            throw TellException.of(ErrorCode.INTERNAL, "not a physical operator: " + rel.getRelTypeName());
        }
        ExecNode once = shared.shared(rel, () -> t.implement(this));
        ExecNode node = once != null ? once : t.implement(this);
        PartedInput parted = root ? PartedInput.of(rel, this) : null;
        return parted != null ? parted.gathered(node) : node;
    }

    /**
     * An object that stands for {@code rel} in executions (the same for every call with it): what
     * a parallel execution names the operators its parts treat alike by ({@link PartedInput}),
     * without the executable tree holding on to the planner's nodes.
     */
    Object key(RelNode rel) {
        return keys.computeIfAbsent(rel, r -> new Object());
    }

    /**
     * {@code rel} computes, at each opening, a value that does not depend on the rows of its
     * input {@code streamed}: {@code compute} (a hash join's table, from its other input). The
     * parts of a parallel execution share one ({@link io.tell.sql.exec.ExecContext#sharedByParts},
     * under {@link #key}).
     */
    void shareable(RelNode rel, Function<ExecContext, ?> compute, RelNode streamed) {
        shareable.put(rel, new Shareable(compute, streamed));
    }

    /** What {@link #shareable} registered for {@code rel}, or null. */
    Shareable shareable(RelNode rel) {
        return shareable.get(rel);
    }

    /** How many times the plan reaches {@code rel} (0 in a data modification's plan, which shares nothing). */
    int uses(RelNode rel) {
        return shared.uses(rel);
    }

    public TableStore table(RelOptTable table) {
        return node.table(def(table));
    }

    public static TableDef def(RelOptTable table) {
        io.tell.sql.internal.CatalogSchema.Table t = table.unwrap(io.tell.sql.internal.CatalogSchema.Table.class);
        if (t == null) {
            String name = String.join(".", table.getQualifiedName());
            throw TellException.of(ErrorCode.FEATURE_NOT_SUPPORTED, table.unwrap(io.tell.sql.internal.CatalogSchema.View.class)
                    != null ? name + " is a view, and views are read-only: INSERT, UPDATE and DELETE need a table"
                    : name + " is a sequence, not a table: read it with NEXT VALUE FOR or nextval()");
        }
        return t.def();
    }

    public boolean forUpdate() {
        return forUpdate;
    }

    /** The data modification returns {@code returner}'s rows, one per changed row, instead of a count. */
    public void returnRows(RowReturner rows) {
        returner = rows;
    }

    /** The INSERT or UPDATE checks every new row against {@code checks} before its first write. */
    public void checkRows(RowChecks rowChecks) {
        this.checks = rowChecks;
    }

    /** The data modification keeps the foreign keys {@code rules} describe. */
    public void keepForeignKeys(ForeignKeyRules rules) {
        this.foreignKeys = rules;
    }

    /** The foreign keys the data modification keeps, or null. */
    ForeignKeyRules foreignKeys() {
        return foreignKeys;
    }

    /** The CHECK constraints new rows must pass, or null. */
    RowChecks rowChecks() {
        return checks;
    }

    /** The INSERT resolves unique-key conflicts as {@code upsert} says (ON CONFLICT). */
    public void resolveConflicts(Upsert upsert) {
        this.upsert = upsert;
    }

    /** The ON CONFLICT of the INSERT, or null. */
    Upsert upsert() {
        return upsert;
    }

    /** The RETURNING rows of the data modification, or null when it returns its count. */
    RowReturner returner() {
        return returner;
    }

    /**
     * Marks {@code scan} as the one whose rows a data modification changes, which uses only the
     * columns at {@code reads} of them (ascending; null: all, as when they are returned).
     */
    void setRidSource(RelNode scan, int[] reads) {
        ridSource = scan;
        ridSourceReads = reads;
    }

    /** What the data modification uses of the rows {@code scan} reads for it ({@link #setRidSource}), or {@code columns}. */
    int[] reads(RelNode scan, int[] columns) {
        return scan == ridSource ? ridSourceReads : columns;
    }

    /**
     * Whether operators may read their inputs ahead of what they emit: not when a scan
     * publishes rids to a data modification or locks rows for FOR UPDATE, as it does so for
     * the row it emits last.
     */
    boolean mayReadAhead() {
        return ridSource == null && !forUpdate;
    }

    /** Whether {@code scan} must publish the rid of each row it emits. */
    boolean publishesRid(RelNode scan) {
        return scan == ridSource;
    }
}
