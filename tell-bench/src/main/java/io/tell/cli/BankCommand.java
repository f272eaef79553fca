package io.tell.cli;

import io.tell.bench.bank.BankWorkload;
import io.tell.cm.CommitManagerClient;
import io.tell.cm.LocalCommitManager;
import io.tell.store.CountingRecordStore;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import io.tell.txn.CommitManager;
import io.tell.txn.TransactionManager;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code tell bank}: bank transfers over several processing nodes, then the invariant check.
 * The embedded default runs everything in this JVM; {@code --store redis://…} shares a Redis.
 */
final class BankCommand {
    static final String USAGE = """
            tell bank [--store URL] [--cm HOST:PORT[,…]] [--nodes N] [--threads N] [--accounts N] [--seconds S] [--seed N]
              Bank transfers by THREADS threads spread over NODES processing nodes (each its own
              transaction manager and store connection) sharing one store and commit manager;
              prints progress, throughput, store round trips per transfer and the invariant check
              (total balance constant, every acknowledged transfer applied exactly once).
              --store    mem: (default, in this JVM) or redis://host:port[,host:port…]
              --cm       commit manager service(s) started with `tell commitmgr`; default: one in this JVM
              --nodes 3  --threads 8  --accounts 1000  --seconds 10  --seed 42""";

    private BankCommand() {
    }

    static int run(String[] argv) throws InterruptedException {
        Args args = new Args(argv, 1, List.of("store", "cm", "nodes", "threads", "accounts", "seconds", "seed"));
        String url = args.get("store", "mem:");
        int nodeCount = args.intValue("nodes", 3, 1);
        BankWorkload.Config config = new BankWorkload.Config(args.intValue("accounts", 1000, 2), 1_000,
                args.intValue("threads", 8, 1), Integer.MAX_VALUE, args.doubleValue("seconds", 10), args.longValue("seed", 42));
        boolean embedded = url.startsWith("mem:");
        RecordStore shared = embedded ? RecordStores.open(url) : null;
        List<CountingRecordStore> stores = new ArrayList<>();
        List<TransactionManager> nodes = new ArrayList<>();
        RecordStore cmStore = embedded || args.has("cm") ? shared : RecordStores.open(url);
        CommitManager cm = args.has("cm")
                ? CommitManagerClient.connect(args.get("cm", ""), CommitManagerClient.Options.defaults().withSecret(io.tell.cm.ClusterSecret.configured(null)))
                : LocalCommitManager.open(cmStore, embedded ? LocalCommitManager.Options.embedded() : LocalCommitManager.Options.durableService());
        try {
            for (int n = 0; n < nodeCount; n++) {
                CountingRecordStore s = new CountingRecordStore(embedded ? shared : RecordStores.open(url));
                stores.add(s);
                TransactionManager node = new TransactionManager(s, cm, "pn-" + n);
                if (args.has("cm")) {
                    // Over commit-manager services a node holds a lease, so its death is recovered.
                    node.startLease(java.time.Duration.ofSeconds(3));
                }
                nodes.add(node);
            }
            System.out.printf("bank: %d accounts, %d threads over %d processing nodes, store %s, commit manager %s, seed %d, %.0f s%n",
                    config.accounts(), config.threads(), nodeCount, url, args.get("cm", "in-process"), config.seed(), config.seconds());
            BankWorkload bank = new BankWorkload(config, nodes, System.out);
            bank.load();
            long before = totalRoundTrips(stores);
            BankWorkload.Result r = bank.run();
            long roundTrips = totalRoundTrips(stores) - before;
            System.out.printf("committed %,d transfers in %.1f s: %,.0f tx/s; %,d conflicts retried (%.1f%%), %,d other retries%n",
                    r.committed(), r.seconds(), r.committed() / r.seconds(), r.conflicts(),
                    100.0 * r.conflicts() / Math.max(1, r.committed() + r.conflicts()), r.otherRetries());
            System.out.printf("store round trips per committed transfer (incl. retries and the check): %.2f%n",
                    roundTrips / (double) Math.max(1, r.committed()));
            System.out.printf("check: total %,d (expected %,d), %,d transfers found, %,d acknowledged: %s%n",
                    r.actualTotal(), r.expectedTotal(), r.transfersFound(), r.transfersAcknowledged(),
                    r.ok() ? "OK" : "VIOLATED");
            r.violations().forEach(v -> System.out.println("  " + v));
            return r.ok() ? 0 : 1;
        } finally {
            nodes.forEach(TransactionManager::close);
            cm.close();
            if (embedded) {
                shared.close();
            } else {
                stores.forEach(RecordStore::close);
                if (cmStore != null) {
                    cmStore.close();
                }
            }
        }
    }

    private static long totalRoundTrips(List<CountingRecordStore> stores) {
        return stores.stream().mapToLong(s -> s.counts().total()).sum();
    }
}
