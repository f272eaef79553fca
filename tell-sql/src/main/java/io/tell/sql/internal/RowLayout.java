package io.tell.sql.internal;

import io.tell.sql.TableDef;
import java.util.List;

/**
 * A table's rows as the SQL layer sees them (its visible columns, in order) over the slots they
 * are stored in ({@link TableDef#layout()}): after ALTER TABLE dropped a column its slot stays
 * in the bytes, and rows stored before a column was added end early ({@link RowCodec} fills
 * them). While no column was added or dropped, columns and slots are the same and nothing is
 * mapped. Immutable and thread-safe.
 */
public final class RowLayout {
    private final RowCodec codec;
    /** The slot of each visible column; null when they are the same. */
    private final int[] slots;
    private final int width;

    public RowLayout(TableDef def) {
        List<TableDef.Slot> layout = def.layout();
        this.codec = new RowCodec(layout.stream().map(TableDef.Slot::type).toList(),
                layout.stream().map(TableDef.Slot::fill).toArray());
        this.width = layout.size();
        if (def.slots().isEmpty()) {
            this.slots = null;
        } else {
            this.slots = new int[def.columns().size()];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = def.slotOf(i);
            }
        }
    }

    /** The bytes of a row of the visible columns; dropped slots hold NULL. */
    public byte[] encode(Object[] row) {
        if (slots == null) {
            return codec.encode(row);
        }
        Object[] stored = new Object[width];
        for (int i = 0; i < slots.length; i++) {
            stored[slots[i]] = row[i];
        }
        return codec.encode(stored);
    }

    public Object[] decode(byte[] bytes) {
        Object[] stored = codec.decode(bytes);
        if (slots == null) {
            return stored;
        }
        Object[] row = new Object[slots.length];
        for (int i = 0; i < slots.length; i++) {
            row[i] = stored[slots[i]];
        }
        return row;
    }

    /** Only the visible columns at {@code columns} (ascending positions), in that order. */
    public Object[] decode(byte[] bytes, int[] columns) {
        return codec.decode(bytes, slots == null ? columns : slotsOf(columns));
    }

    /** Whether an encoded row holds more slots than this layout has: it was written under a later one (a column added). */
    public boolean isLater(byte[] bytes) {
        return RowCodec.columns(bytes) > width;
    }

    public Object decodeColumn(byte[] bytes, int column) {
        return codec.decodeColumn(bytes, slots == null ? column : slots[column]);
    }

    private int[] slotsOf(int[] columns) {
        int[] out = new int[columns.length];
        for (int i = 0; i < columns.length; i++) {
            out[i] = slots[columns[i]];
        }
        return out;
    }
}
