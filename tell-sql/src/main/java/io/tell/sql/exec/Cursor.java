package io.tell.sql.exec;

import java.util.Iterator;
import java.util.List;

/** Rows of one opened operator, pulled one at a time. */
@FunctionalInterface
public interface Cursor {
    /** The next row, or null at the end. */
    Object[] next();

    /** The rows not pulled yet, pulled into a list. */
    default List<Object[]> rest() {
        List<Object[]> rows = new java.util.ArrayList<>();
        for (Object[] r = next(); r != null; r = next()) {
            rows.add(r);
        }
        return rows;
    }

    static Cursor of(List<Object[]> rows) {
        Iterator<Object[]> it = rows.iterator();
        return () -> it.hasNext() ? it.next() : null;
    }

    Cursor EMPTY = () -> null;
}
