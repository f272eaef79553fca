package io.tell.cli;

import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccBenchmark;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccResult;
import io.tell.bench.tpcc.TpccScale;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/** {@code tell tpcc}: the TPC-C benchmark over JDBC against any database URL. */
final class TpccCommand {
    static final String DEFAULT_URL = "jdbc:tell:mem:tpcc";
    static final String USAGE = """
            tell tpcc [--url JDBC_URL] [--user U --password P] [--warehouses N] [--terminals N] [--duration 60s]
                      [--warmup 10s] [--load-threads N] [--no-load] [--spec-waits] [--select-for-update]
                      [--isolation LEVEL] [--batch N] [--out DIR] [--seed N]
              TPC-C over plain JDBC: drops, creates and loads the nine tables (W warehouses, in parallel,
              with a progress bar), runs TERMINALS terminals (a thread and connection each, the 45/43/4/4/4
              deck, conflicts 40001/40P01 retried), then checks consistency (§3.3.2 conditions 1-4) and
              prints tpmC, tx/s, per-type outcomes and latency percentiles (on a Tell URL also Tell's store
              and commit-manager round trips per transaction: for the run, and for each type run alone after
              it); writes result.json, throughput.png and latency.png into the output directory.
              --url          jdbc:tell:mem:tpcc (default), jdbc:h2:mem:tpcc, jdbc:postgresql://localhost/tpcc, …
              --warehouses 1  --terminals 4  --duration 60s  --warmup 10s  --load-threads <cores>  --batch 1000
              --no-load      keep the data in the database (its warehouse count is used)
              --spec-waits   keying and think times of the specification (default: none, as in the paper)
              --select-for-update  read stock rows with SELECT ... FOR UPDATE before updating them
              --isolation    the terminals' level: default (the driver's), read-committed, repeatable-read, serializable
              --out          default target/tpcc-<timestamp>/   --seed 42 (also fixes the NURand constants)""";

    private TpccCommand() {
    }

    static int isolation(String name) {
        return switch (name) {
            case "default" -> 0;
            case "read-committed" -> Connection.TRANSACTION_READ_COMMITTED;
            case "repeatable-read" -> Connection.TRANSACTION_REPEATABLE_READ;
            case "serializable" -> Connection.TRANSACTION_SERIALIZABLE;
            default -> throw new Args.UsageException(
                    "--isolation must be default, read-committed, repeatable-read or serializable: " + name);
        };
    }

    static int run(String[] argv) throws Exception {
        Args args = new Args(argv, 1,
                List.of("url", "user", "password", "warehouses", "terminals", "duration", "warmup", "load-threads",
                        "batch", "out", "seed", "isolation"),
                List.of("no-load", "spec-waits", "select-for-update"));
        String url = args.get("url", DEFAULT_URL);
        JdbcTarget target = new JdbcTarget(url, args.get("user", null), args.get("password", null));
        double duration = args.seconds("duration", 60);
        Path out = Path.of(args.get("out",
                "target/tpcc-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        TpccOptions options;
        try {
            options = new TpccOptions(target, args.intValue("warehouses", 1, 1), args.intValue("terminals", 4, 1),
                    duration, args.seconds("warmup", 10), args.intValue("load-threads", Runtime.getRuntime().availableProcessors(), 1),
                    !args.has("no-load"), args.has("spec-waits"), args.has("select-for-update"), out, args.longValue("seed", 42),
                    args.intValue("batch", 1_000, 1), isolation(args.get("isolation", "default")), TpccScale.SPEC);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try {
            TpccResult result = new TpccBenchmark(options, System.out, System.err).run();
            return result.consistent() ? 0 : 1;
        } catch (SQLException e) {
            System.err.printf("tell tpcc: %s [SQLState %s]%n", e.getMessage(), e.getSQLState());
            if (url.equals(DEFAULT_URL) && "08001".equals(e.getSQLState())) {
                System.err.println("tell tpcc: Tell's JDBC driver is not in this build yet; try --url jdbc:h2:mem:tpcc");
            }
            return 1;
        }
    }
}
