package io.tell.bench.chaos;

import io.tell.bench.process.CommitManagerProcess;
import io.tell.bench.process.ExitGuard;
import io.tell.cm.CommitManagerClient;
import io.tell.error.TellException;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.store.StoredRecord;
import io.tell.store.redis.process.RedisClusterProcesses;
import io.tell.store.redis.process.RedisProcess;
import io.tell.txn.SnapshotDescriptor;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The chaos scenario (issue 10): a Redis Cluster (3 primaries, 3 replicas, writes wait for one
 * replica), two {@code tell commitmgr} processes, and processing nodes in JVMs of their own
 * ({@link ChaosNode}) running bank transfers, each recorded under a unique id. Meanwhile, in a
 * seeded order with seeded gaps: a node is killed (SIGKILL) mid-commit after its log write, one
 * after part of its apply batch, one after applying everything but before telling the commit
 * manager (a fresh node replaces each); a commit manager is killed (and a new one started on its
 * port); a Redis primary is killed (its replica takes over; the killed one comes back as a
 * replica). Afterwards, through a fresh transaction manager: the total balance is unchanged,
 * every acknowledged transfer is applied exactly once, no definitely failed one is, the rest
 * are in doubt; every account can be written again; the commit managers' snapshots have passed
 * every tid the killed nodes began.
 */
public final class ChaosRun {
    static final String ACCOUNTS = "chaos.accounts";
    static final String TRANSFERS = "chaos.transfers";
    static final long INITIAL_BALANCE = 1_000;
    private static final Duration BOUND = Duration.ofSeconds(30);

    /** What to run: {@code seconds} is the least run time (the faults may need more). */
    public record Config(long seed, double seconds, int nodes, int accounts, int threadsPerNode, long leaseMillis,
                         Path dir, PrintStream log) {
    }

    enum Fault {
        KILL_NODE_AT_LOGGED("LOGGED"), KILL_NODE_AT_PARTLY_APPLIED("PARTLY_APPLIED"), KILL_NODE_AT_APPLIED("APPLIED"),
        KILL_COMMIT_MANAGER(null), KILL_REDIS_PRIMARY(null);

        final String step;

        Fault(String step) {
            this.step = step;
        }
    }

    private final Config config;
    private final PrintStream log;
    private final Random random;
    private final ChaosLedger ledger = new ChaosLedger();
    private final List<ChaosNodeProcess> nodes = Collections.synchronizedList(new ArrayList<>());
    private final List<ChaosNodeProcess> killed = new ArrayList<>();
    private final List<CommitManagerProcess> cms = new ArrayList<>();
    private final List<ChaosReport.FaultResult> faults = new ArrayList<>();
    private RedisClusterProcesses redis;
    private ExitGuard redisGuard;
    private String storeUrl;
    private String cmAddresses;
    private long startNanos;
    private int nodeCounter;

    private ChaosRun(Config config) {
        this.config = config;
        this.log = config.log();
        this.random = new Random(config.seed());
    }

    public static ChaosReport run(Config config) throws Exception {
        return new ChaosRun(config).run();
    }

    private ChaosReport run() throws Exception {
        Files.createDirectories(config.dir());
        log.printf("chaos: seed %d, %d processing nodes, %d accounts, logs in %s%n", config.seed(), config.nodes(),
                config.accounts(), config.dir());
        try {
            // Node i runs and logs in dir/redis/redis-i.
            redis = RedisClusterProcesses.builder().primaries(3).replicasPerPrimary(1).dir(config.dir().resolve("redis"))
                    .start();
            RedisClusterProcesses started = redis;
            redisGuard = new ExitGuard("redis-cluster", () -> started.nodes().forEach(RedisProcess::kill));
            storeUrl = redis.url() + "?replicas=1&timeoutMs=1000";
            for (int i = 0; i < 2; i++) {
                cms.add(CommitManagerProcess.start(storeUrl, config.dir().resolve("cm-" + i + ".log"), 0,
                        List.of("--in-doubt-grace-ms", "1000")));
            }
            cmAddresses = cms.stream().map(CommitManagerProcess::address).collect(Collectors.joining(","));
            log.printf("chaos: redis cluster %s, commit managers %s%n", storeUrl, cmAddresses);
            try (Parent parent = new Parent("chaos-parent")) {
                load(parent.tm);
                startNodes(config.nodes());
                startNanos = System.nanoTime();
                awaitFullService(startNanos, BOUND);
                List<Fault> order = new ArrayList<>(List.of(Fault.values()));
                Collections.shuffle(order, random);
                log.println("chaos: faults in order " + order);
                for (Fault f : order) {
                    Thread.sleep(1_000 + random.nextInt(1_500));
                    faults.add(inject(f, parent.tm));
                }
                // At least 5 s after the last fault, so that its throughput dip is seen to end.
                long left = (long) (config.seconds() * 1e9) - (System.nanoTime() - startNanos);
                Thread.sleep(Math.max(5_000, TimeUnit.NANOSECONDS.toMillis(left)));
            }
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            log.println("chaos: stopping the processing nodes");
            for (ChaosNodeProcess n : List.copyOf(nodes)) {
                n.stop();
            }
            for (ChaosNodeProcess n : List.copyOf(nodes)) {
                n.stopOrKill(30);
            }
            return check(seconds);
        } finally {
            for (ChaosNodeProcess n : List.copyOf(nodes)) {
                n.stopOrKill(0);
            }
            for (CommitManagerProcess cm : cms) {
                cm.close();
            }
            if (redis != null) {
                redisGuard.release();
                redis.close();
            }
        }
    }

    /** A transaction manager of this process with its own store connection and commit-manager client. */
    private final class Parent implements AutoCloseable {
        final RecordStore store;
        final CommitManagerClient client;
        final TransactionManager tm;

        Parent(String name) {
            store = RecordStores.open(storeUrl);
            client = CommitManagerClient.connect(cmAddresses, CommitManagerClient.Options.defaults());
            tm = new TransactionManager(store, client, name);
        }

        @Override
        public void close() {
            tm.close();
            client.close();
            store.close();
        }
    }

    private void load(TransactionManager tm) {
        tm.run(10, tx -> {
            for (int a = 0; a < config.accounts(); a++) {
                tx.insert(ACCOUNTS, accountKey(a), longBytes(INITIAL_BALANCE));
            }
            return null;
        });
    }

    private List<ChaosNodeProcess> startNodes(int count) throws Exception {
        List<ChaosNodeProcess> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = "n" + (++nodeCounter);
            List<String> args = List.of("--store", storeUrl, "--cm", cmAddresses, "--name", name,
                    "--accounts", Integer.toString(config.accounts()), "--threads", Integer.toString(config.threadsPerNode()),
                    "--lease-ms", Long.toString(config.leaseMillis()), "--seed", Long.toString(config.seed() + nodeCounter));
            started.add(ChaosNodeProcess.start(name, args, config.dir().resolve(name + ".log"), ledger));
        }
        for (ChaosNodeProcess n : started) {
            n.ready.get(60, TimeUnit.SECONDS);
            nodes.add(n);
        }
        return started;
    }

    private List<ChaosNodeProcess> live() {
        synchronized (nodes) {
            return nodes.stream().filter(ChaosNodeProcess::isAlive).toList();
        }
    }

    /** Waits until every node live now has acknowledged a transfer since {@code sinceNanos}; the time that took, or -1. */
    private long awaitFullService(long sinceNanos, Duration timeout) throws InterruptedException {
        List<ChaosNodeProcess> live = live();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            long last = sinceNanos;
            boolean all = true;
            for (ChaosNodeProcess n : live) {
                Long t = ledger.firstAckAfter(n.name, sinceNanos);
                if (t == null && n.isAlive()) {
                    all = false;
                    break;
                }
                last = Math.max(last, t == null ? last : t);
            }
            if (all) {
                return TimeUnit.NANOSECONDS.toMillis(last - sinceNanos);
            }
            Thread.sleep(10);
        }
        return -1;
    }

    private long sinceStart() {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    private ChaosReport.FaultResult inject(Fault fault, TransactionManager tm) throws Exception {
        return switch (fault) {
            case KILL_NODE_AT_LOGGED, KILL_NODE_AT_PARTLY_APPLIED, KILL_NODE_AT_APPLIED -> killNode(fault, tm);
            case KILL_COMMIT_MANAGER -> killCommitManager();
            case KILL_REDIS_PRIMARY -> killRedisPrimary();
        };
    }

    private ChaosReport.FaultResult killNode(Fault fault, TransactionManager tm) throws Exception {
        List<ChaosNodeProcess> live = live();
        ChaosNodeProcess victim = live.get(random.nextInt(live.size()));
        long at = sinceStart();
        victim.pauseAt(fault.step);
        String[] paused;
        try {
            paused = victim.paused.get(BOUND.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            return new ChaosReport.FaultResult("kill node " + fault.step, victim.name, at, -1, -1, -1,
                    "no commit reached " + fault.step + " within " + BOUND.toSeconds() + " s");
        }
        long tid = Long.parseLong(paused[1]);
        victim.kill();
        long t0 = victim.killedAtNanos;
        at = TimeUnit.NANOSECONDS.toMillis(t0 - startNanos);
        synchronized (killed) {
            killed.add(victim);
        }
        log.printf("chaos: %5.1f s  killed %s (pid %d) paused at %s in tid %d%n", sinceStart() / 1000.0, victim.name,
                victim.pid(), fault.step, tid);
        ChaosLedger.Begun b = ledger.begun.values().stream().filter(x -> x.tid() == tid).findFirst().orElse(null);
        long writable = b == null ? -1 : awaitWritable(tm, List.of(account(b.from()), account(b.to())), t0);
        long full = awaitFullService(t0, BOUND);
        startNodes(1); // keep the count
        return new ChaosReport.FaultResult("kill node " + fault.step, victim.name + " tid " + tid, at, full, writable, -1, "");
    }

    /** Rewrites {@code keys} unchanged in one transaction until it commits; ms from {@code sinceNanos}, or -1. */
    private static long awaitWritable(TransactionManager tm, List<RecordKey> keys, long sinceNanos) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (System.nanoTime() < deadline) {
            Transaction tx = null;
            try {
                tx = tm.begin();
                for (RecordKey k : keys) {
                    tx.lock(k.domain(), k.key());
                }
                tx.commit();
                return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sinceNanos);
            } catch (TellException e) {
                if (tx != null) {
                    tx.rollback();
                }
                if (!e.retriable()) {
                    throw e;
                }
                Thread.sleep(20);
            }
        }
        return -1;
    }

    private ChaosReport.FaultResult killCommitManager() throws Exception {
        int i = random.nextInt(cms.size());
        CommitManagerProcess victim = cms.get(i);
        long at = sinceStart();
        long t0 = System.nanoTime();
        victim.kill();
        log.printf("chaos: %5.1f s  killed commit manager %s (pid %d)%n", sinceStart() / 1000.0, victim.address(), victim.pid());
        long full = awaitFullService(t0, BOUND);
        victim.close();
        cms.set(i, CommitManagerProcess.start(storeUrl, config.dir().resolve("cm-" + i + "b.log"), victim.port(),
                List.of("--in-doubt-grace-ms", "1000")));
        return new ChaosReport.FaultResult("kill commit manager", victim.address(), at, full, -1, -1,
                "a new one started on its port afterwards");
    }

    private ChaosReport.FaultResult killRedisPrimary() throws Exception {
        List<RedisProcess> primaries = redis.primaries();
        RedisProcess victim = primaries.get(random.nextInt(primaries.size()));
        long at = sinceStart();
        long t0 = System.nanoTime();
        victim.kill();
        log.printf("chaos: %5.1f s  killed redis primary %d%n", sinceStart() / 1000.0, victim.port());
        redis.awaitFailover(BOUND);
        long failover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        victim.restart(); // back as the replica of the promoted one: writes need a replica
        redis.awaitHealthy(Duration.ofSeconds(60));
        long healthy = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        long full = awaitFullService(t0, Duration.ofSeconds(60));
        return new ChaosReport.FaultResult("kill redis primary", "port " + victim.port(), at, full, -1, failover,
                "killed node back as a replica after " + healthy + " ms");
    }

    /** The checks, through a fresh transaction manager. */
    private ChaosReport check(double seconds) throws Exception {
        List<String> violations = new ArrayList<>();
        try (Parent checker = new Parent("chaos-check")) {
            TransactionManager tm = checker.tm;
            List<RecordKey> accountKeys = new ArrayList<>();
            for (int a = 0; a < config.accounts(); a++) {
                accountKeys.add(account(a));
            }
            long writable = awaitWritable(tm, accountKeys, System.nanoTime());
            if (writable < 0) {
                violations.add("the accounts were not all writable within " + BOUND.toSeconds() + " s");
            }
            Set<Long> deadTids = new HashSet<>();
            for (ChaosNodeProcess n : killed) {
                deadTids.addAll(ledger.tidsOf(n.name));
            }
            long passed = awaitSnapshotPast(tm, deadTids, violations);

            Map<String, long[]> found = new HashMap<>();
            long[] expected = new long[config.accounts()];
            java.util.Arrays.fill(expected, INITIAL_BALANCE);
            long total = 0;
            long duplicated = 0;
            try (Transaction tx = tm.beginReadOnly()) {
                List<byte[]> balances = tx.getAll(accountKeys);
                List<RecordKey> keys = new ArrayList<>();
                for (StoredRecord r : tm.store().scan(TRANSFERS, KeyRange.ALL, Integer.MAX_VALUE)) {
                    keys.add(new RecordKey(TRANSFERS, r.key()));
                }
                List<byte[]> rows = tx.getAll(keys);
                for (int i = 0; i < rows.size(); i++) {
                    if (rows.get(i) == null) {
                        continue;
                    }
                    String id = new String(keys.get(i).key(), StandardCharsets.UTF_8);
                    ByteBuffer t = ByteBuffer.wrap(rows.get(i));
                    long[] transfer = {t.getInt(), t.getInt(), t.getLong()};
                    if (found.put(id, transfer) != null) {
                        duplicated++;
                        violations.add("transfer " + id + " recorded twice");
                    }
                    expected[(int) transfer[0]] -= transfer[2];
                    expected[(int) transfer[1]] += transfer[2];
                }
                for (int a = 0; a < config.accounts(); a++) {
                    long balance = ByteBuffer.wrap(balances.get(a)).getLong();
                    total += balance;
                    if (balance != expected[a]) {
                        violations.add("account " + a + " holds " + balance + " but its transfers say " + expected[a]);
                    }
                }
                tx.commit();
            }
            long expectedTotal = INITIAL_BALANCE * config.accounts();
            if (total != expectedTotal) {
                violations.add("total balance " + total + ", expected " + expectedTotal);
            }
            long lost = ledger.acked.stream().filter(id -> !found.containsKey(id)).count();
            if (lost > 0) {
                violations.add(lost + " acknowledged transfers are missing, e.g. "
                        + ledger.acked.stream().filter(id -> !found.containsKey(id)).findFirst().orElseThrow());
            }
            List<String> failedApplied = ledger.failed.keySet().stream().filter(found::containsKey).sorted().toList();
            if (!failedApplied.isEmpty()) {
                String first = failedApplied.get(0);
                violations.add(failedApplied.size() + " failed transfers are applied, e.g. " + first + " (tid "
                        + ledger.begun.get(first).tid() + "), failed with " + ledger.failed.get(first));
            }
            ledger.acked.stream().filter(ledger.failed::containsKey)
                    .forEach(id -> violations.add("transfer " + id + " both acknowledged and failed"));
            found.keySet().stream().filter(id -> !ledger.begun.containsKey(id))
                    .forEach(id -> violations.add("transfer " + id + " applied but never begun"));
            long inDoubt = ledger.begun.keySet().stream().filter(ledger::inDoubt).count();
            long inDoubtApplied = ledger.begun.keySet().stream().filter(ledger::inDoubt).filter(found::containsKey).count();
            return new ChaosReport(config.seed(), seconds, nodeCounter, ledger.begun.size(), ledger.acked.size(),
                    ledger.failed.size(), new java.util.TreeMap<>(ledger.failCodes.entrySet().stream()
                            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().sum()))), inDoubt, inDoubtApplied, lost, duplicated, failedApplied.size(), expectedTotal, total,
                    List.copyOf(faults), faults.stream().map(f -> ledger.throughputAround(startNanos
                            + TimeUnit.MILLISECONDS.toNanos(f.atMillis()))).toList(), writable, passed, deadTids.size(),
                    violations);
        }
    }

    /** Waits until a new snapshot has every tid of {@code tids} completed; ms that took, or -1 (a violation). */
    private static long awaitSnapshotPast(TransactionManager tm, Set<Long> tids, List<String> violations)
            throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + BOUND.toNanos();
        List<Long> open = List.of();
        while (System.nanoTime() < deadline) {
            try (Transaction tx = tm.beginReadOnly()) {
                SnapshotDescriptor s = tx.snapshot();
                open = tids.stream().filter(t -> !s.isVisible(t)).sorted().toList();
                if (open.isEmpty()) {
                    return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                }
            } catch (TellException e) {
                if (!e.retriable()) {
                    throw e;
                }
            }
            Thread.sleep(100);
        }
        violations.add("after " + BOUND.toSeconds() + " s the snapshot still misses " + open.size() + " tids of killed nodes: "
                + open.stream().limit(10).toList());
        return -1;
    }

    static RecordKey account(int a) {
        return new RecordKey(ACCOUNTS, accountKey(a));
    }

    static byte[] accountKey(int account) {
        return ByteBuffer.allocate(4).putInt(account).array();
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static byte[] transferRow(int from, int to, long moved) {
        return ByteBuffer.allocate(16).putInt(from).putInt(to).putLong(moved).array();
    }
}
