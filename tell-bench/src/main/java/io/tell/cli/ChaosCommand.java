package io.tell.cli;

import io.tell.bench.chaos.ChaosReport;
import io.tell.bench.chaos.ChaosRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** {@code tell chaos}: the chaos scenario by hand ({@link ChaosRun}), printing its report. */
final class ChaosCommand {
    static final String USAGE = """
            tell chaos [--seed N] [--seconds S] [--nodes 3]
              Real processes on loopback: a Redis Cluster (3 primaries + 3 replicas, writes wait for a
              replica), two `tell commitmgr`, NODES processing-node JVMs running bank transfers. Kills
              (SIGKILL) a node mid-commit after its log write, one after part of its apply batch, one
              after applying but before the commit report, a commit manager and a Redis primary, in a
              seeded order; then checks: total unchanged, every acknowledged transfer applied once, no
              failed one applied, every account writable, the killed nodes' tids all settled.
              Prints transfers acknowledged, lost, duplicated, in doubt, and per fault the time to full
              service. Needs redis-server and redis-cli on the PATH. Exit code 1 on a violation.
              --seed 42  --seconds 30 (least run time; the faults may need more)  --nodes 3""";

    private ChaosCommand() {
    }

    static int run(String[] argv) throws Exception {
        Args args = new Args(argv, 1, List.of("seed", "seconds", "nodes"));
        long seed = args.longValue("seed", 42);
        Path dir = Files.createTempDirectory("tell-chaos-");
        ChaosReport report = ChaosRun.run(new ChaosRun.Config(seed, args.seconds("seconds", 30), args.intValue("nodes", 3, 2),
                20, 2, 2_000, dir, System.out));
        report.print(System.out);
        return report.ok() ? 0 : 1;
    }
}
