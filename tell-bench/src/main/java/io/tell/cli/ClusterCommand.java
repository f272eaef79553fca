package io.tell.cli;

import io.tell.bench.cluster.ClusterState;
import io.tell.bench.cluster.LocalCluster;
import io.tell.cm.ClusterStatus;
import io.tell.server.pool.Pools;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * {@code tell cluster status|url|up|down}: a cluster's commit managers, processing nodes, pools
 * and sweeper; the JDBC URL of a pool; a local cluster started and stopped with one command.
 */
final class ClusterCommand {
    static final String USAGE = """
            usage: tell cluster status --store URL [--sample 1s]
                   tell cluster url --store URL --pool NAME [--database tell]
                   tell cluster up [--dir DIR]
                   tell cluster down [--dir DIR]
              status         commit managers, processing nodes and their leases, pools and their servers, sweeper
              url            the PostgreSQL JDBC URL reaching the live servers of a pool, with load balancing
              up             a local cluster on 127.0.0.1: Redis Cluster (3 primaries, 3 replicas), 2 commit managers,
                             an OLTP pool of 2 PN servers and an OLAP pool of 1 (trust authentication: development only)
              down           stops what up started
              --store URL    the cluster's record store, e.g. redis://127.0.0.1:6379
              --sample D     time between the two reads that tell live heartbeats from silent ones
              --dir DIR      where up keeps logs and its state file (default ~/.tell/cluster)""";

    private ClusterCommand() {
    }

    static int run(String[] argv) throws InterruptedException, IOException {
        String sub = argv.length < 2 ? "" : argv[1];
        return switch (sub) {
            case "status" -> status(new Args(argv, 2, List.of("store", "sample")));
            case "url" -> url(new Args(argv, 2, List.of("store", "pool", "database")));
            case "up" -> up(new Args(argv, 2, List.of("dir")));
            case "down" -> down(new Args(argv, 2, List.of("dir")));
            default -> throw new Args.UsageException("expected status, url, up or down");
        };
    }

    private static String store(Args args) {
        String url = args.get("store", null);
        if (url == null) {
            throw new Args.UsageException("--store URL is required");
        }
        return url;
    }

    private static int status(Args args) throws InterruptedException {
        String url = store(args);
        Duration sample = Duration.ofMillis(Math.round(args.seconds("sample", 1) * 1000));
        try (RecordStore store = RecordStores.open(url)) {
            System.out.print(ClusterStatus.read(store, sample).format());
            System.out.print(Pools.read(store, Pools.DEFAULT_STALE_AFTER).format(System.currentTimeMillis()));
        }
        return 0;
    }

    private static int url(Args args) throws InterruptedException {
        String url = store(args);
        String pool = args.get("pool", null);
        if (pool == null) {
            throw new Args.UsageException("--pool NAME is required");
        }
        try (RecordStore store = RecordStores.open(url)) {
            Pools pools = Pools.read(store, Pools.DEFAULT_STALE_AFTER);
            Optional<String> jdbc = pools.jdbcUrl(pool, args.get("database", "tell"));
            if (jdbc.isEmpty()) {
                int stale = pools.of(pool).size();
                System.err.println("tell cluster url: pool " + pool + " has no live server"
                        + (stale == 0 ? "" : " (" + stale + " stale, no heartbeat for " + Pools.DEFAULT_STALE_AFTER.toSeconds() + " s)"));
                return 1;
            }
            System.out.println(jdbc.get());
        }
        return 0;
    }

    private static Path dir(Args args) {
        String dir = args.get("dir", null);
        return dir != null ? Path.of(dir) : Path.of(System.getProperty("user.home"), ".tell", "cluster");
    }

    private static int up(Args args) throws IOException, InterruptedException {
        Path dir = dir(args);
        try {
            ClusterState state = LocalCluster.up(dir, System.out);
            System.out.print(LocalCluster.describe(state, dir));
            return 0;
        } catch (IllegalStateException e) {
            System.err.println("tell cluster up: " + e.getMessage());
            return 1;
        }
    }

    private static int down(Args args) throws IOException, InterruptedException {
        Path dir = dir(args);
        Optional<ClusterState> state = ClusterState.load(dir);
        if (state.isEmpty()) {
            System.err.println("tell cluster down: nothing started from " + dir + " (no " + dir.resolve("cluster.properties") + ")");
            return 1;
        }
        List<Long> killed = state.get().stop(System.out);
        System.out.println("cluster stopped" + (killed.isEmpty() ? "" : " (killed with SIGKILL: " + killed + ")"));
        return 0;
    }
}
