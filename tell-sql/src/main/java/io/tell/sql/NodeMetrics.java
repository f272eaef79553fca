package io.tell.sql;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Metrics;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.gc.SweepStats;
import io.tell.gc.Sweeper;
import io.tell.metrics.TellMeters;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

/**
 * A processing node's meters, in Micrometer's global registry (an application adds its own
 * registry there, a PN server its Prometheus endpoint), tagged {@code node=<node id>}: store
 * round trips by kind, commit-manager calls by kind, read-write transactions by outcome, plan-cache and
 * shared-buffer hits, open sessions, statement latency by kind, and what its sweeper ({@code gc=on})
 * deleted. Removed when the node closes.
 * Names: {@code docs/metrics.md}.
 */
public final class NodeMetrics implements AutoCloseable {
    private final TellMeters meters;
    private final AtomicInteger sessions = new AtomicInteger();
    private final Map<PreparedSql.Kind, Timer> statements = new EnumMap<>(PreparedSql.Kind.class);
    private final Map<ErrorCode, Counter> failures = new java.util.concurrent.ConcurrentHashMap<>();

    NodeMetrics(ProcessingNode node, String nodeId) {
        this(Metrics.globalRegistry, node, nodeId);
    }

    NodeMetrics(MeterRegistry registry, ProcessingNode node, String nodeId) {
        meters = new TellMeters(registry, Tags.of("node", nodeId)).store(node.countingStore())
                .commitManager("tell.cm.calls", node.countingCommitManager())
                .counter("tell.transactions", "read-write transactions ended, by outcome", () -> node.transactions().commits(),
                        "outcome", "committed")
                .counter("tell.transactions", "read-write transactions ended, by outcome", () -> node.transactions().aborts(),
                        "outcome", "aborted")
                .counter("tell.conflicts.early", "transactions that gave up before their commit on another writer's version of a hot record they wrote",
                        () -> node.transactions().earlyConflicts())
                .counter("tell.conflicts.merged", "records written merged onto another writer's newer committed version instead of conflicting (column merges)",
                        () -> node.transactions().mergedWrites())
                .counter("tell.plan.cache", "statements planned or found planned", () -> node.plans().hits(), "result", "hit")
                .counter("tell.plan.cache", "statements planned or found planned", () -> node.plans().misses(), "result", "miss")
                .counter("tell.buffer.reads", "records read through the shared buffer, by where they came from",
                        () -> node.transactions().sharedBufferCounts()[0], "source", "snapshot")
                .counter("tell.buffer.reads", "records read through the shared buffer, by where they came from",
                        () -> node.transactions().sharedBufferCounts()[1], "source", "version_set")
                .counter("tell.buffer.reads", "records read through the shared buffer, by where they came from",
                        () -> node.transactions().sharedBufferCounts()[2], "source", "store")
                .counter("tell.tree.cache", "inner-node lookups of the index trees, by cache result",
                        () -> node.treeCacheCounts()[0], "result", "hit")
                .counter("tell.tree.cache", "inner-node lookups of the index trees, by cache result",
                        () -> node.treeCacheCounts()[1], "result", "miss")
                .gauge("tell.sessions", "open sessions", sessions::get);
        node.sweeper().ifPresent(this::sweeper);
        if (node.workers() != null) {
            meters.counter("tell.parallel.runs", "scans and subplans run in parts on the node's worker threads",
                            () -> node.workers().scans().sum(), "kind", "scan")
                    .counter("tell.parallel.runs", "scans and subplans run in parts on the node's worker threads",
                            () -> node.workers().subplans().sum(), "kind", "subplan");
        }
        for (PreparedSql.Kind kind : PreparedSql.Kind.values()) {
            statements.put(kind, meters.own(Timer.builder("tell.statements").description("statement run time, by kind")
                    .tags(meters.tags()).tag("kind", kind.name().toLowerCase(java.util.Locale.ROOT))
                    .publishPercentileHistogram().register(registry)));
        }
    }

    /** {@code tell.gc.passes} and {@code tell.gc.deleted{kind}}: what this node's sweeper did while it held the lease. */
    private void sweeper(Sweeper sweeper) {
        meters.counter("tell.gc.passes", "sweeper passes completed", () -> sweeper.stats().passes());
        Map<String, ToLongFunction<SweepStats>> kinds = new LinkedHashMap<>();
        kinds.put("rows", SweepStats::rowsDeleted);
        kinds.put("index_entries", SweepStats::indexEntriesDeleted);
        kinds.put("claims", SweepStats::claimsDeleted);
        kinds.put("log_entries", SweepStats::logEntriesDeleted);
        kinds.put("fences", SweepStats::fencesDeleted);
        kinds.put("dead_records", SweepStats::deadRecordsDeleted);
        kinds.put("tree_records", SweepStats::treeRecordsDeleted);
        kinds.forEach((kind, value) -> meters.counter("tell.gc.deleted", "records the sweeper deleted, by kind",
                () -> value.applyAsLong(sweeper.stats()), "kind", kind));
    }

    void sessionOpened() {
        sessions.incrementAndGet();
    }

    void sessionClosed() {
        sessions.decrementAndGet();
    }

    /** Sessions open now. */
    public int openSessions() {
        return sessions.get();
    }

    /** Statements run so far, of every kind. */
    public long statementsRun() {
        long n = 0;
        for (Timer t : statements.values()) {
            n += t.count();
        }
        return n;
    }

    /**
     * A statement failed with {@code e}: {@code tell.statements.failed{code}} counts it by Tell's
     * error code (TX_CONFLICT for conflict aborts, DUPLICATE_KEY, …; INTERNAL for anything else).
     */
    public void failed(RuntimeException e) {
        ErrorCode code = e instanceof TellException te ? te.code() : ErrorCode.INTERNAL;
        failures.computeIfAbsent(code, c -> meters.own(Counter.builder("tell.statements.failed")
                .description("statements that failed, by error code").tags(meters.tags())
                .tag("code", c.name()).register(meters.registry()))).increment();
    }

    /** A statement of {@code kind} ran for {@code nanos}. */
    public void statement(PreparedSql.Kind kind, long nanos) {
        statements.get(kind).record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        meters.close();
    }
}
