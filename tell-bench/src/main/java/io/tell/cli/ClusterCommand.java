package io.tell.cli;

import io.tell.cm.ClusterStatus;
import io.tell.store.RecordStore;
import io.tell.store.RecordStores;
import java.time.Duration;
import java.util.List;

/** {@code tell cluster status --store URL}: the commit managers, processing nodes and sweeper of a cluster. */
final class ClusterCommand {
    static final String USAGE = """
            usage: tell cluster status --store URL [--sample 1s]
              --store URL    the cluster's record store, e.g. redis://127.0.0.1:6379
              --sample D     time between the two reads that tell live heartbeats from silent ones""";

    private ClusterCommand() {
    }

    static int run(String[] argv) throws InterruptedException {
        if (argv.length < 2 || !argv[1].equals("status")) {
            throw new Args.UsageException("expected 'status'");
        }
        Args args = new Args(argv, 2, List.of("store", "sample"));
        String url = args.get("store", null);
        if (url == null) {
            throw new Args.UsageException("--store URL is required");
        }
        Duration sample = Duration.ofMillis(Math.round(args.seconds("sample", 1) * 1000));
        try (RecordStore store = RecordStores.open(url)) {
            System.out.print(ClusterStatus.read(store, sample).format());
        }
        return 0;
    }
}
