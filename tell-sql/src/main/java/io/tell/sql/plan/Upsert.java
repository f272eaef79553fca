package io.tell.sql.plan;

import io.tell.sql.exec.Expr;
import java.util.List;

/**
 * What an INSERT does with a proposed row whose unique key a row already holds (ON CONFLICT):
 * nothing, or set {@code columns} of the row there to {@code values} (when {@code condition},
 * if any, holds). The expressions are over the existing row followed by the proposed one.
 *
 * @param keys the unique keys checked (the primary key has no index name)
 */
public record Upsert(List<Key> keys, List<Integer> columns, List<Expr> values, Expr condition) {
    /** A unique key: the primary key ({@code index} null) or a unique index, over column positions, kept in {@code tree}. */
    public record Key(String index, int[] columns, String tree) {
    }

    /** The trees of the keys checked. */
    public java.util.Set<String> trees() {
        return keys.stream().map(Key::tree).collect(java.util.stream.Collectors.toSet());
    }

    public Upsert {
        keys = List.copyOf(keys);
        columns = List.copyOf(columns);
        values = List.copyOf(values);
    }

    public boolean doNothing() {
        return columns.isEmpty();
    }
}
