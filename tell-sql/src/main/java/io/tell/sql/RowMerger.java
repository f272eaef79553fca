package io.tell.sql;

import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.Expr;
import io.tell.sql.internal.RowLayout;
import io.tell.txn.RowMerge;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * How an UPDATE of a row of one table joins a newer committed version of that row
 * ({@link RowMerge}, docs/transactions.md "Column merges"): the columns the update assigned are
 * set on the newer version, provided it changed none of them and no indexed column is
 * assigned or changed there (an index entry is kept for one key of the row, and the merged row
 * must be where the index says). A column the statement set from its own value alone ({@code
 * SET c = c + ?}, read nowhere else in the statement) is computed again from the newer version's
 * value ({@link Reapplied}): two additions to a total both count, as if one ran after the other
 * (the commit then validates the transaction's other reads: {@link #reapplies}). A newer version
 * written under a later table layout (a column added since) is never merged onto. Immutable.
 */
public final class RowMerger implements RowMerge {
    /** A column the statement set from its own value alone, and the expression that did. */
    public record Reapplied(int column, Expr expr) {
    }

    /** What every merge of one table shares: its layout, its indexed columns, its validation of a row. */
    record Table(RowLayout codec, boolean[] indexed, UnaryOperator<Object[]> validate) {
    }

    private final Table table;
    /** The columns the update assigned. */
    private final boolean[] assigned;
    private final List<Reapplied> reapplied;
    /** Per column, whether it is among {@link #reapplied}. */
    private final boolean[] again;
    /** The statement's context, whose parameters and time the re-applied expressions use; null when there are none. */
    private final ExecContext ctx;

    RowMerger(Table table, boolean[] assigned, List<Reapplied> reapplied, ExecContext ctx) {
        this.table = table;
        this.assigned = assigned;
        this.reapplied = List.copyOf(reapplied);
        this.again = new boolean[assigned.length];
        for (Reapplied r : reapplied) {
            again[r.column()] = true;
        }
        this.ctx = ctx;
    }

    @Override
    public byte[] merge(byte[] base, byte[] ours, byte[] theirs) {
        try {
            return merged(base, ours, theirs);
        } catch (RuntimeException e) {
            return null; // a value that does not fit its column, or a row that does not decode: no merge (the retry reports it)
        }
    }

    private byte[] merged(byte[] base, byte[] ours, byte[] theirs) {
        if (table.codec().isLater(theirs)) {
            return null;
        }
        Object[] b = table.codec().decode(base);
        Object[] o = table.codec().decode(ours);
        Object[] t = table.codec().decode(theirs);
        Object[] merged = t.clone();
        for (int i = 0; i < b.length; i++) {
            boolean theirsChanged = !Objects.deepEquals(b[i], t[i]);
            if ((assigned[i] || theirsChanged) && table.indexed()[i]) {
                return null;
            }
            if (assigned[i] && !again[i]) {
                if (theirsChanged) {
                    return null;
                }
                merged[i] = o[i];
            }
        }
        for (Reapplied r : reapplied) {
            merged[r.column()] = r.expr().eval(t, ctx);
        }
        return table.codec().encode(table.validate().apply(merged));
    }

    /** True when a re-applied column of {@code theirs} differs from {@code base}'s: the merge then computed it from their value. */
    @Override
    public boolean reapplies(byte[] base, byte[] theirs) {
        if (reapplied.isEmpty()) {
            return false;
        }
        try {
            Object[] b = table.codec().decode(base);
            Object[] t = table.codec().decode(theirs);
            for (Reapplied r : reapplied) {
                if (!Objects.deepEquals(b[r.column()], t[r.column()])) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            return true; // a row that does not decode: validate, as if it had changed
        }
    }

    /**
     * A row written by several statements merges by the column rule alone, over every column
     * any of them assigned: a column one re-applied may have been set outright by another.
     */
    @Override
    public RowMerge then(RowMerge later) {
        if (!(later instanceof RowMerger next) || next.table != table) {
            return null;
        }
        boolean[] both = assigned.clone();
        for (int i = 0; i < both.length; i++) {
            both[i] |= next.assigned[i];
        }
        return new RowMerger(table, both, List.of(), null);
    }
}
