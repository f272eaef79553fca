package io.tell.bench.bank;

import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.KeyRange;
import io.tell.store.RecordKey;
import io.tell.store.StoredRecord;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Bank transfers between accounts by many threads spread over several processing nodes
 * (one {@link TransactionManager} each). Every transfer moves money between two accounts and
 * records itself under a unique id in the same transaction, so afterwards one can check that
 * the total is unchanged and that exactly the transfers whose commit was acknowledged were
 * applied, each once. Thread {@code t} draws from {@code new Random(seed + t)}.
 */
public final class BankWorkload {
    static final String ACCOUNTS = "bank.accounts";
    static final String TRANSFERS = "bank.transfers";

    /** What to run. {@code transfersPerThread} bounds the work; {@code seconds} bounds the time. */
    public record Config(int accounts, long initialBalance, int threads, int transfersPerThread, double seconds, long seed) {
    }

    /** Outcome of a run and of its invariant check. */
    public record Result(long committed, long conflicts, long otherRetries, double seconds,
                         long expectedTotal, long actualTotal, long transfersFound, long transfersAcknowledged,
                         List<String> violations) {
        public boolean ok() {
            return violations.isEmpty();
        }
    }

    private final Config config;
    private final List<TransactionManager> nodes;
    private final PrintStream progress;
    private final LongAdder committed = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
    private final LongAdder otherRetries = new LongAdder();
    private final Set<Long> acknowledged = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Transfers whose commit ended with TX_OUTCOME_UNKNOWN: found or not, both are right. */
    private final Set<Long> inDoubt = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public BankWorkload(Config config, List<TransactionManager> nodes, PrintStream progress) {
        this.config = config;
        this.nodes = nodes;
        this.progress = progress;
    }

    /** Creates the accounts (in batches, through the first node). */
    public void load() {
        for (int from = 0; from < config.accounts(); from += 500) {
            int start = from;
            int end = Math.min(config.accounts(), from + 500);
            nodes.get(0).run(10, tx -> {
                for (int a = start; a < end; a++) {
                    tx.insert(ACCOUNTS, accountKey(a), longBytes(config.initialBalance()));
                }
                return null;
            });
        }
    }

    public Result run() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(config.threads());
        long started = System.nanoTime();
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < config.threads(); t++) {
            int thread = t;
            workers.add(pool.submit(() -> worker(thread, nodes.get(thread % nodes.size()), stop)));
        }
        pool.shutdown();
        long deadline = started + (long) (config.seconds() * 1e9);
        long lastReport = started;
        while (!pool.awaitTermination(100, TimeUnit.MILLISECONDS)) {
            long now = System.nanoTime();
            if (now >= deadline) {
                stop.set(true);
            }
            if (progress != null && now - lastReport >= 1_000_000_000L) {
                lastReport = now;
                progress.printf("  %5.1fs  committed %,d  conflicts %,d  (%,.0f tx/s)%n", (now - started) / 1e9,
                        committed.sum(), conflicts.sum(), committed.sum() / ((now - started) / 1e9));
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        for (Future<?> w : workers) {
            try {
                w.get();
            } catch (java.util.concurrent.ExecutionException e) {
                throw TellException.unwrap(e.getCause());
            }
        }
        return check(seconds);
    }

    private void worker(int thread, TransactionManager node, AtomicBoolean stop) {
        Random rnd = new Random(config.seed() + thread);
        for (int i = 0; i < config.transfersPerThread() && !stop.get(); i++) {
            int from = rnd.nextInt(config.accounts());
            int to = (from + 1 + rnd.nextInt(config.accounts() - 1)) % config.accounts();
            long amount = 1 + rnd.nextInt(100);
            long id = ((long) thread << 32) | i;
            transfer(node, id, from, to, amount, stop);
        }
    }

    private void transfer(TransactionManager node, long id, int from, int to, long amount, AtomicBoolean stop) {
        for (int attempt = 1; ; attempt++) {
            Transaction tx = null;
            try {
                tx = node.begin();
                List<byte[]> rows = tx.getAll(List.of(new RecordKey(ACCOUNTS, accountKey(from)), new RecordKey(ACCOUNTS, accountKey(to))));
                long fromBalance = ByteBuffer.wrap(rows.get(0)).getLong();
                long toBalance = ByteBuffer.wrap(rows.get(1)).getLong();
                long moved = Math.min(amount, fromBalance);
                tx.update(ACCOUNTS, accountKey(from), longBytes(fromBalance - moved));
                tx.update(ACCOUNTS, accountKey(to), longBytes(toBalance + moved));
                tx.insert(TRANSFERS, longBytes(id), ByteBuffer.allocate(16).putInt(from).putInt(to).putLong(moved).array());
                tx.commit();
                acknowledge(id);
                return;
            } catch (TellException e) {
                if (tx != null) {
                    tx.rollback();
                }
                if (e.code() == ErrorCode.TX_COMMIT_PENDING) {
                    acknowledge(id); // applied; visible once the commit manager acknowledges it
                    return;
                }
                if (e.code() == ErrorCode.TX_OUTCOME_UNKNOWN) {
                    inDoubt.add(id); // the node settles it; not retried, as an application would not
                    return;
                }
                if (!e.retriable() || stop.get() && attempt > 50) {
                    throw e;
                }
                (e.code() == ErrorCode.TX_CONFLICT ? conflicts : otherRetries).increment();
                pause(attempt);
            }
        }
    }

    private void acknowledge(long id) {
        acknowledged.add(id);
        committed.increment();
    }

    /** Checks the invariants in one read-only transaction on the last node. */
    private Result check(double seconds) {
        List<String> violations = new ArrayList<>();
        TransactionManager node = nodes.get(nodes.size() - 1);
        List<RecordKey> accountKeys = new ArrayList<>();
        for (int a = 0; a < config.accounts(); a++) {
            accountKeys.add(new RecordKey(ACCOUNTS, accountKey(a)));
        }
        long[] expected = new long[config.accounts()];
        java.util.Arrays.fill(expected, config.initialBalance());
        long actualTotal = 0;
        Set<Long> found = new HashSet<>();
        try (Transaction tx = node.beginReadOnly()) {
            List<byte[]> balances = tx.getAll(accountKeys);
            List<RecordKey> transferKeys = new ArrayList<>();
            for (StoredRecord r : node.store().scan(TRANSFERS, KeyRange.ALL, Integer.MAX_VALUE)) {
                transferKeys.add(new RecordKey(TRANSFERS, r.key()));
            }
            List<byte[]> transfers = tx.getAll(transferKeys);
            for (int i = 0; i < transfers.size(); i++) {
                byte[] row = transfers.get(i);
                if (row == null) {
                    continue;
                }
                long id = ByteBuffer.wrap(transferKeys.get(i).key()).getLong();
                ByteBuffer t = ByteBuffer.wrap(row);
                int from = t.getInt();
                int to = t.getInt();
                long moved = t.getLong();
                expected[from] -= moved;
                expected[to] += moved;
                if (!found.add(id)) {
                    violations.add("transfer " + id + " recorded twice");
                }
            }
            for (int a = 0; a < config.accounts(); a++) {
                long balance = ByteBuffer.wrap(balances.get(a)).getLong();
                actualTotal += balance;
                if (balance != expected[a]) {
                    violations.add("account " + a + " holds " + balance + " but its transfers say " + expected[a]);
                }
            }
            tx.commit();
        }
        long expectedTotal = config.initialBalance() * config.accounts();
        if (actualTotal != expectedTotal) {
            violations.add("total is " + actualTotal + ", expected " + expectedTotal);
        }
        Set<Long> missing = new HashSet<>(acknowledged);
        missing.removeAll(found);
        Set<Long> unexpected = new HashSet<>(found);
        unexpected.removeAll(acknowledged);
        unexpected.removeAll(inDoubt);
        if (!missing.isEmpty()) {
            violations.add(missing.size() + " acknowledged transfers are missing, e.g. " + missing.iterator().next());
        }
        if (!unexpected.isEmpty()) {
            violations.add(unexpected.size() + " transfers applied without an acknowledged commit, e.g. " + unexpected.iterator().next());
        }
        found.removeAll(inDoubt); // present or not, both are right: counted neither way
        return new Result(committed.sum(), conflicts.sum(), otherRetries.sum(), seconds, expectedTotal, actualTotal,
                found.size(), acknowledged.size(), violations);
    }

    static byte[] accountKey(int account) {
        return ByteBuffer.allocate(4).putInt(account).array();
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(java.util.concurrent.ThreadLocalRandom.current().nextLong(1 + Math.min(50, 1L << Math.min(attempt, 6))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw TellException.of(ErrorCode.INTERNAL, "interrupted", e);
        }
    }
}
