package io.tell.sql.plan;

import io.tell.index.ScanRange;
import io.tell.sql.TableStore;
import io.tell.sql.exec.Cursor;
import io.tell.sql.exec.ExecContext;
import io.tell.sql.exec.ExecNode;
import io.tell.sql.exec.PartedRun;
import io.tell.txn.Transaction;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;

/**
 * The input of an aggregate or a sort, or a whole query, that can run in parts on the node's
 * worker threads (docs/sql.md, "Parallel queries"): a subplan whose rows come, through filters, projections, the streamed
 * sides of hash joins and the outer sides of nested loops, from a full scan of one table. Each
 * part runs the whole subplan over one key range of that table, on a reader of the
 * transaction's snapshot; the joins on the path build their hash tables once for all parts,
 * before the parts start, on the caller's thread (their own scans in parallel).
 * The parts' rows together are the subplan's rows, and part by part in key order they are in
 * the order one run would give.
 */
final class PartedInput {
    private final TableStore table;
    private final Object scan;
    /** What the joins on the path compute once per opening, by the keys that stand for them. */
    private final Map<Object, Function<ExecContext, ?>> shared;

    private PartedInput(TableStore table, Object scan, Map<Object, Function<ExecContext, ?>> shared) {
        this.table = table;
        this.scan = scan;
        this.shared = shared;
    }

    /**
     * {@code input} as a subplan that can run in parts, or null when it cannot: its path down
     * meets another operator, a join that must see all streamed rows at once (right and full
     * joins), or a node the plan reaches twice (kept for all its uses, {@link SharedSubplans});
     * or it calls a function that is not deterministic; or the plan modifies data or locks rows
     * (FOR UPDATE: the locks must be the statement's transaction's).
     */
    static PartedInput of(RelNode input, Implementor impl) {
        if (impl.forUpdate() || !SharedSubplans.deterministic(input)) {
            return null;
        }
        Map<Object, Function<ExecContext, ?>> shared = new LinkedHashMap<>(); // top-down
        RelNode rel = input;
        while (impl.uses(rel) == 1) {
            if (rel instanceof TellTableScan s) {
                return new PartedInput(impl.table(s.getTable()), impl.key(s), shared);
            } else if (rel instanceof TellFilter || rel instanceof TellProject) {
                rel = rel.getInput(0);
            } else if (rel instanceof TellJoin j && streams(j.getJoinType()) && impl.shareable(j) != null) {
                shared.put(impl.key(j), impl.shareable(j).compute());
                rel = impl.shareable(j).streamed();
            } else if (rel instanceof TellCorrelate c && streams(c.getJoinType())) {
                rel = c.getLeft();
            } else {
                return null;
            }
        }
        return null;
    }

    /**
     * {@code input} (this subplan's executable tree) as a whole query's rows: run in parts when
     * the execution can, the parts' rows handed out in key order, which is one run's order.
     */
    ExecNode gathered(ExecNode input) {
        return ctx -> {
            List<Object[]> rows = rows(input, ctx);
            return rows != null ? Cursor.of(rows) : input.open(ctx);
        };
    }

    /**
     * The rows of {@code input} (this subplan's executable tree) run in parts, the parts' rows
     * in key order, which is one run's order; null when this execution cannot run in parts
     * ({@link #run}).
     */
    List<Object[]> rows(ExecNode input, ExecContext ctx) {
        List<List<Object[]>> parts = run(input, ctx, Cursor::rest);
        if (parts == null) {
            return null;
        }
        List<Object[]> rows = new ArrayList<>();
        parts.forEach(rows::addAll);
        return rows;
    }

    /** Join types whose every streamed row's output depends on that row alone. */
    private static boolean streams(JoinRelType type) {
        return type == JoinRelType.INNER || type == JoinRelType.LEFT || type == JoinRelType.SEMI || type == JoinRelType.ANTI;
    }

    /**
     * {@code each} applied to the rows of every part of {@code input} (this subplan's executable
     * tree), the parts run on the execution's workers, the results in key order; null when this
     * execution cannot run in parts (no workers, SERIALIZABLE, the transaction has written, or
     * the table is too small to cut), and the caller runs {@code input} as one.
     */
    <T> List<T> run(ExecNode input, ExecContext ctx, Function<Cursor, T> each) {
        ExecContext.Workers workers = ctx.workers();
        Transaction tx = ctx.transaction();
        if (workers == null || workers.degree() < 2 || !tx.readsInParallel()) {
            return null;
        }
        List<ScanRange> ranges = table.parts(workers.degree() * TableStore.PARTS_PER_WORKER);
        if (ranges.isEmpty()) {
            return null;
        }
        workers.subplans().increment();
        ctx.statementTime(); // fixed before the parts ask for CURRENT_TIMESTAMP
        Map<Object, Object> values = new IdentityHashMap<>();
        shared.forEach((key, compute) -> values.put(key, compute.apply(ctx))); // here, with parallel scans of their own
        PartedRun run = new PartedRun(scan, values);
        List<Function<Transaction, T>> parts = new ArrayList<>(ranges.size());
        for (ScanRange range : ranges) {
            parts.add(reader -> {
                try {
                    return each.apply(input.open(ctx.forPart(reader, run, range)));
                } catch (RuntimeException | Error e) {
                    run.fail(e); // the other parts stop at their next check
                    throw e;
                }
            });
        }
        try {
            return tx.readInParallel(parts, workers.executor());
        } catch (RuntimeException | Error e) {
            throw run.firstFailure(e); // not a part's "another part failed"
        }
    }
}
