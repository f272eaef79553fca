package io.tell.bench.chaos;

import io.tell.cm.CommitManagerClient;
import io.tell.error.ErrorCode;
import io.tell.error.TellException;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.CommitObserver;
import io.tell.txn.Transaction;
import io.tell.txn.TransactionManager;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A processing node of the chaos run ({@link ChaosRun}) in a JVM of its own: its own store
 * connection, a commit-manager client over every manager, a transaction manager holding a
 * lease, and a few threads running bank transfers. Each transfer attempt gets a fresh id
 * ({@code <node>-<sequence>}) and inserts a row under it in {@link ChaosRun#TRANSFERS} in the
 * same transaction, so the parent can check exactly-once. One line per event on stdout:
 * <pre>
 * READY
 * BEGIN id tid from to      a transaction began (tid from the commit manager)
 * ACK id                    committed
 * FAIL id CODE message      definitely not committed (a TellException other than the two below)
 * DOUBT id                  TX_COMMIT_PENDING or TX_OUTCOME_UNKNOWN, or a failure that is not a TellException
 * PAUSED STEP tid           a commit stopped at STEP and blocks for good (the parent kills the JVM)
 * DONE
 * </pre>
 * Lines on stdin: {@code PAUSE STEP} (stop the next commit that reaches {@link CommitObserver.Step}
 * STEP) and {@code STOP} (finish the running transfers, leave cleanly, exit).
 *
 * <p>Args: {@code --store URL --cm H:P,H:P --name N --accounts K --threads T --lease-ms L --seed S}.
 */
public final class ChaosNode {
    private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    private final TransactionManager tm;
    private final String name;
    private final int accounts;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicReference<CommitObserver.Step> pauseAt = new AtomicReference<>();
    private volatile boolean stopping;

    private ChaosNode(TransactionManager tm, String name, int accounts) {
        this.tm = tm;
        this.name = name;
        this.accounts = accounts;
    }

    public static void main(String[] argv) throws Exception {
        java.util.Map<String, String> args = new java.util.HashMap<>();
        for (int i = 0; i + 1 < argv.length; i += 2) {
            args.put(argv[i].replaceFirst("^--", ""), argv[i + 1]);
        }
        String name = args.get("name");
        int accounts = Integer.parseInt(args.get("accounts"));
        int threads = Integer.parseInt(args.getOrDefault("threads", "2"));
        long seed = Long.parseLong(args.getOrDefault("seed", "1"));
        RecordStore store = RecordStores.open(args.get("store"));
        CommitManagerClient client = CommitManagerClient.connect(args.get("cm"), CommitManagerClient.Options.defaults()
                .withRequestTimeout(Duration.ofSeconds(2)).withReportDeadline(Duration.ofSeconds(60)));
        TransactionManager tm = new TransactionManager(store, client, name, Duration.ofSeconds(5));
        tm.startLease(Duration.ofMillis(Long.parseLong(args.getOrDefault("lease-ms", "2000"))));
        ChaosNode node = new ChaosNode(tm, name, accounts);
        tm.observeCommits(node::reached);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Random random = new Random(seed * 1_000_003 + t);
            Thread w = new Thread(() -> node.transfers(random), name + "-worker-" + t);
            workers.add(w);
        }
        emit("READY");
        workers.forEach(Thread::start);
        node.listen();
        for (Thread w : workers) {
            w.join(30_000);
        }
        tm.close();
        client.close();
        store.close();
        emit("DONE");
        System.exit(0);
    }

    /** Reads the parent's requests until STOP or the end of stdin (the parent is gone). */
    private void listen() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            String[] f = line.trim().split(" ");
            if (f[0].equals("PAUSE") && f.length == 2) {
                pauseAt.set(CommitObserver.Step.valueOf(f[1]));
            } else if (f[0].equals("STOP")) {
                break;
            }
        }
        stopping = true;
    }

    private void reached(CommitObserver.Step step, long tid) {
        if (pauseAt.get() == step && pauseAt.compareAndSet(step, null)) {
            emit("PAUSED " + step + " " + tid);
            while (true) { // until the parent kills this JVM
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    // keep blocking: this commit must not go on
                }
            }
        }
    }

    private void transfers(Random random) {
        while (!stopping) {
            int from = random.nextInt(accounts);
            int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
            long amount = 1 + random.nextInt(100);
            Transaction tx;
            try {
                tx = tm.begin();
            } catch (TellException e) {
                pause(50); // no commit manager reachable just now
                continue;
            }
            String id = name + "-" + sequence.incrementAndGet();
            emit("BEGIN " + id + " " + tx.tid() + " " + from + " " + to);
            try {
                List<byte[]> rows = tx.getAll(List.of(ChaosRun.account(from), ChaosRun.account(to)));
                long fromBalance = ByteBuffer.wrap(rows.get(0)).getLong();
                long toBalance = ByteBuffer.wrap(rows.get(1)).getLong();
                long moved = Math.min(amount, fromBalance);
                tx.update(ChaosRun.ACCOUNTS, ChaosRun.accountKey(from), ChaosRun.longBytes(fromBalance - moved));
                tx.update(ChaosRun.ACCOUNTS, ChaosRun.accountKey(to), ChaosRun.longBytes(toBalance + moved));
                tx.insert(ChaosRun.TRANSFERS, id.getBytes(StandardCharsets.UTF_8), ChaosRun.transferRow(from, to, moved));
                tx.commit();
                emit("ACK " + id);
            } catch (TellException e) {
                tx.rollback();
                boolean doubt = e.code() == ErrorCode.TX_COMMIT_PENDING || e.code() == ErrorCode.TX_OUTCOME_UNKNOWN;
                if (!doubt && e.code() != ErrorCode.TX_CONFLICT) {
                    e.printStackTrace(); // into the node's log: where a rare definite failure came from
                }
                emit(doubt ? "DOUBT " + id : "FAIL " + id + " " + e.code() + " " + String.valueOf(e.getMessage()).replaceAll("\\s+", " "));
                pause(e.code() == ErrorCode.TX_CONFLICT ? 2 : 50);
            } catch (RuntimeException | Error e) {
                tx.rollback();
                e.printStackTrace();
                emit("DOUBT " + id);
                pause(50);
            }
        }
    }

    private static void emit(String line) {
        OUT.println(line);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
