package io.tell.sql.plan;

import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.Rows;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The execution of INTERSECT and EXCEPT, with or without ALL, as multisets with NULLs equal
 * (SQL's set-operator rules): every input after the first is counted by row into a hash table,
 * then the first is streamed. A row of the first input is kept
 * <ul>
 *   <li>INTERSECT: when every other input holds it (ALL: as many copies as the input holding
 *       the fewest has; otherwise once);</li>
 *   <li>EXCEPT: when no other input holds it (ALL: each copy beyond the number the others hold
 *       together; otherwise once).</li>
 * </ul>
 */
final class SetDifference {
    private SetDifference() {
    }

    static ExecNode intersect(List<ExecNode> inputs, int width, boolean all) {
        return plan(inputs, width, all, true);
    }

    static ExecNode except(List<ExecNode> inputs, int width, boolean all) {
        return plan(inputs, width, all, false);
    }

    private static ExecNode plan(List<ExecNode> inputs, int width, boolean all, boolean intersect) {
        int[] columns = new int[width];
        for (int i = 0; i < width; i++) {
            columns[i] = i;
        }
        return ctx -> {
            // Copies of each row the first input may still keep (INTERSECT) or must drop (EXCEPT).
            Map<List<Object>, Long> budget = null;
            for (ExecNode input : inputs.subList(1, inputs.size())) {
                Map<List<Object>, Long> counts = count(input.open(ctx), columns);
                if (budget == null) {
                    budget = counts;
                } else if (intersect) {
                    Map<List<Object>, Long> fewest = new HashMap<>();
                    for (Map.Entry<List<Object>, Long> e : counts.entrySet()) {
                        Long before = budget.get(e.getKey());
                        if (before != null) {
                            fewest.put(e.getKey(), Math.min(before, e.getValue()));
                        }
                    }
                    budget = fewest;
                } else {
                    Map<List<Object>, Long> sum = budget;
                    counts.forEach((k, n) -> sum.merge(k, n, Long::sum));
                }
            }
            Map<List<Object>, Long> left = budget == null ? new HashMap<>() : budget;
            Set<List<Object>> emitted = all ? null : new HashSet<>();
            Cursor first = inputs.get(0).open(ctx);
            return () -> {
                for (Object[] r = first.next(); r != null; r = first.next()) {
                    List<Object> key = Rows.groupKey(r, columns);
                    long n = left.getOrDefault(key, 0L);
                    if (all && n > 0) {
                        left.put(key, n - 1); // this copy is matched by one of theirs
                    }
                    boolean keep = intersect ? n > 0 : n == 0;
                    if (keep && (emitted == null || emitted.add(key))) {
                        return r;
                    }
                }
                return null;
            };
        };
    }

    private static Map<List<Object>, Long> count(Cursor rows, int[] columns) {
        Map<List<Object>, Long> counts = new HashMap<>();
        for (Object[] r = rows.next(); r != null; r = rows.next()) {
            counts.merge(Rows.groupKey(r, columns), 1L, Long::sum);
        }
        return counts;
    }
}
