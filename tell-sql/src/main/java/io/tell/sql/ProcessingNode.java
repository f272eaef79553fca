package io.tell.sql;

import io.tell.cm.ClusterSecret;
import io.tell.cm.CommitManagerClient;
import io.tell.cm.LocalCommitManager;
import io.tell.gc.SweepOptions;
import io.tell.gc.Sweeper;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.CommitManager;
import io.tell.txn.CountingCommitManager;
import io.tell.txn.TransactionManager;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a Tell URL makes of this JVM: a processing node with its store connection, commit
 * manager (in-process for embedded databases, a client of the services otherwise),
 * transaction manager, catalog and table access. Connections to one shared URL share one
 * node, so its caches (catalog, index inner nodes) serve them all.
 *
 * <p>A named embedded database ({@code jdbc:tell:mem:NAME}) lives as long as the JVM, as its
 * store does: it has exactly one commit manager, which must never be opened twice over the
 * same store. A private one ({@code jdbc:tell:mem:}) and a Redis node end with their last user.
 */
public final class ProcessingNode implements AutoCloseable {
    private static final Map<String, ProcessingNode> SHARED = new HashMap<>();

    private final TellUrl url;
    private final RecordStore rawStore;
    private final CountingRecordStore store;
    private final CommitManager rawCommitManager;
    private final CountingCommitManager commitManager;
    private final TransactionManager transactions;
    private final Catalog catalog;
    private final Sequences sequences;
    private final Sweeper sweeper;
    private final Map<TableDef, TableStore> tables = new ConcurrentHashMap<>();
    /** The catalog version {@link #keepIndexesOf} last reconciled this node's kept indexes with. */
    private final java.util.concurrent.atomic.AtomicLong keptVersion = new java.util.concurrent.atomic.AtomicLong();
    private final TableSizes sizes = new TableSizes(this::table);
    private final io.tell.sql.engine.PlanCache plans = new io.tell.sql.engine.PlanCache(this);
    private final NodeMetrics metrics;
    /** Threads for intra-query parallelism ({@code parallelism=N}); null at 1. */
    private final java.util.concurrent.ExecutorService scanThreads;
    private final io.tell.sql.exec.ExecContext.Workers workers;
    private int users;

    private ProcessingNode(TellUrl url) {
        this.url = url;
        this.rawStore = RecordStores.open(url.storeUrl());
        try {
            this.rawCommitManager = url.embedded()
                    ? LocalCommitManager.open(rawStore, LocalCommitManager.Options.embedded())
                    // Answers complete on the client's I/O thread: the transaction manager's
                    // callbacks never block, and a hop to another thread cost ~100 µs per call.
                    : CommitManagerClient.connect(url.commitManagers(), CommitManagerClient.Options.defaults()
                            .withCallbackExecutor(Runnable::run).withSecret(ClusterSecret.configured(url.cmSecretFile()))
                                    .withTlsCa(url.cmTlsCa() == null ? null : java.nio.file.Path.of(url.cmTlsCa())));
        } catch (RuntimeException e) {
            rawStore.close();
            throw e;
        }
        this.store = new CountingRecordStore(rawStore);
        this.commitManager = new CountingCommitManager(rawCommitManager);
        String nodeId = "pn-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.transactions = new TransactionManager(store, commitManager, nodeId);
        try {
            TellUrl.Buffer buffer = url.buffer();
            if (buffer.mode() == null) {
                io.tell.txn.Buffering chosen = transactions.useBestBuffering(buffer.unitSize(), buffer.capacity());
                org.slf4j.LoggerFactory.getLogger(ProcessingNode.class).info("buffer={} ({}: the store {})", chosen.option(),
                        "the default", chosen == io.tell.txn.Buffering.SYNCED ? "keeps version sets"
                                : "keeps none or cannot order a commit's bumps behind its writes");
            } else {
                transactions.useBuffering(buffer.mode(), buffer.unitSize(), buffer.capacity());
            }
        } catch (RuntimeException e) {
            transactions.close();
            rawCommitManager.close();
            rawStore.close();
            throw e;
        }
        if (!url.embedded()) {
            // Over a shared store this node's death must not stop the others: a lease lets the
            // commit managers find out and recover what it left mid-commit.
            // Renewed past the round-trip counts: they are the transactions'.
            transactions.startLease(java.time.Duration.ofMillis(url.leaseMs()), rawStore);
        }
        this.catalog = new Catalog(store);
        this.sequences = new Sequences(catalog);
        this.sweeper = url.gc() ? startSweeper(SweepOptions.defaults()) : null;
        this.metrics = new NodeMetrics(this, nodeId);
        this.scanThreads = url.parallelism() < 2 ? null : java.util.concurrent.Executors.newFixedThreadPool(url.parallelism(),
                Thread.ofPlatform().daemon().name("tell-scan-" + nodeId + "-", 1).factory());
        this.workers = scanThreads == null ? null : new io.tell.sql.exec.ExecContext.Workers(scanThreads, url.parallelism());
    }

    /** The threads a query's scans may spread over ({@code parallelism=N} in the URL); null when it is 1. */
    public io.tell.sql.exec.ExecContext.Workers workers() {
        return workers;
    }

    /**
     * A sweeper over this node's store and catalog (see {@code docs/gc.md}); {@code gc=on} in the
     * URL starts one with the default options. Its store calls are counted apart from the node's.
     * The caller owns what it starts here and closes it.
     */
    public Sweeper startSweeper(SweepOptions options) {
        return new Sweeper(rawStore, transactions, new CatalogSweepScope(catalog), options, transactions.nodeId()).start();
    }

    /** The sweeper {@code gc=on} started, if any. */
    public java.util.Optional<Sweeper> sweeper() {
        return java.util.Optional.ofNullable(sweeper);
    }

    /** The node for {@code url}: the shared one (opened on first use) or, for {@code jdbc:tell:mem:}, a new private one. */
    public static ProcessingNode connect(String url) {
        TellUrl parsed = TellUrl.parse(url);
        if (!parsed.shared()) {
            ProcessingNode node = new ProcessingNode(parsed);
            node.users = 1;
            return node;
        }
        synchronized (SHARED) {
            ProcessingNode node = SHARED.get(parsed.nodeKey());
            if (node == null) {
                node = new ProcessingNode(parsed);
                SHARED.put(parsed.nodeKey(), node);
            }
            node.users++;
            return node;
        }
    }

    public TellUrl url() {
        return url;
    }

    public RecordStore store() {
        return store;
    }

    /** Store round trips made by this node's transactions and catalog so far (not an embedded commit manager's). */
    public CountingRecordStore.Counts storeCounts() {
        return store.counts();
    }

    /** Calls this node's transactions made to the commit manager so far. */
    public long commitManagerCalls() {
        return commitManager.calls();
    }

    CountingRecordStore countingStore() {
        return store;
    }

    CountingCommitManager countingCommitManager() {
        return commitManager;
    }

    /** Inner-node cache hits and misses of the index trees of the tables this node has used. */
    long[] treeCacheCounts() {
        long[] sum = new long[2];
        for (TableStore t : tables.values()) {
            long[] c = t.treeCacheCounts();
            sum[0] += c[0];
            sum[1] += c[1];
        }
        return sum;
    }

    /** This node's meters ({@link NodeMetrics}). */
    public NodeMetrics metrics() {
        return metrics;
    }

    public TransactionManager transactions() {
        return transactions;
    }

    public Catalog catalog() {
        return catalog;
    }

    /** Table access for {@code def}, one per definition (its indexes are registered once). */
    /** This node's cached ranges of sequence numbers. */
    public Sequences sequences() {
        return sequences;
    }

    /**
     * This node's transactions stop keeping the index trees that {@code catalog} no longer has
     * (dropped indexes and tables, possibly by another node), so that a dropped unique index
     * refuses no more keys. Cheap when the catalog did not change since the last call.
     */
    public void keepIndexesOf(CatalogSnapshot catalog) {
        long seen = keptVersion.get();
        if (catalog.version() <= seen || !keptVersion.compareAndSet(seen, catalog.version())) {
            return;
        }
        java.util.Set<String> live = new java.util.HashSet<>();
        for (TableDef t : catalog.tables()) {
            live.addAll(t.treeNames());
        }
        java.util.Set<String> domains = new java.util.HashSet<>();
        for (TableDef t : tables.keySet()) {
            domains.add(t.rowDomain());
        }
        for (String domain : domains) {
            for (io.tell.txn.TableIndex kept : transactions.indexesOf(domain)) {
                if (!live.contains(kept.name())) {
                    transactions.removeIndex(kept);
                }
            }
        }
    }

    public TableStore table(TableDef def) {
        TableStore t = tables.get(def);
        return t != null ? t : tables.computeIfAbsent(def, d -> new TableStore(transactions, d, earlier(d)));
    }

    /** This node's store of an earlier definition of the table {@code def} defines (same rows), or null. */
    private TableStore earlier(TableDef def) {
        for (TableStore t : tables.values()) {
            if (t.def().rowDomain().equals(def.rowDomain())) {
                return t;
            }
        }
        return null;
    }

    /** What the planner takes this node's tables to hold. */
    public TableSizes tableSizes() {
        return sizes;
    }

    /** Plans shared by this node's sessions. */
    public io.tell.sql.engine.PlanCache plans() {
        return plans;
    }

    /** A new session (one per JDBC connection) on this node. */
    public SqlSession openSession() {
        metrics.sessionOpened();
        return new io.tell.sql.engine.Session(this, plans);
    }

    /** A session of this node closed. */
    public void sessionClosed() {
        metrics.sessionClosed();
    }

    /** Ends one user's hold; the node shuts down with its last user, unless it is a named embedded database. */
    @Override
    public void close() {
        synchronized (SHARED) {
            if (users == 0) {
                return;
            }
            if (--users > 0 || url.embedded() && url.shared()) {
                return;
            }
            SHARED.remove(url.nodeKey(), this);
        }
        if (sweeper != null) {
            sweeper.close();
        }
        if (scanThreads != null) {
            scanThreads.shutdownNow();
        }
        metrics.close();
        transactions.close();
        rawCommitManager.close();
        rawStore.close();
    }
}
