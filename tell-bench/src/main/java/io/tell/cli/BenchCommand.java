package io.tell.cli;

import io.tell.bench.compare.ComparedDatabase;
import io.tell.bench.compare.ComparedRun;
import io.tell.bench.compare.Comparison;
import io.tell.bench.compare.ComparisonReport;
import io.tell.bench.compare.ComparisonRounds;
import io.tell.bench.htap.HtapReport;
import io.tell.bench.htap.HtapResult;
import io.tell.bench.htap.HtapRun;
import io.tell.bench.load.BulkLoad;
import io.tell.bench.tpcc.JdbcTarget;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccScale;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * {@code tell bench compare}: TPC-C with the same driver and settings on Tell and the databases it
 * is measured against; {@code tell bench load}: a bulk load; {@code tell bench htap}: TPC-C with and
 * without the CH-benCHmark's analytical queries on the same live data.
 */
final class BenchCommand {
    static final String USAGE = """
            tell bench compare [--warehouses 1] [--terminals 4] [--duration 30s] [--warmup 10s] [--load-threads N]
                               [--seed 42] [--only tell-embedded,h2,tell-redis,postgres] [--postgres auto|throw-away]
                               [--isolation repeatable-read] [--rounds 1] [--out DIR]
              TPC-C (as tell tpcc: same driver, settings and seed, each database loading its own data) against, one
              after another: Tell embedded (jdbc:tell:mem:), H2 in memory, Tell on Redis (a redis-server and a
              commit-manager process started on loopback ports, stopped after) and PostgreSQL on loopback (the server
              on 5432 if running, else a Debian cluster started with pg_ctlcluster, else a throw-away initdb cluster;
              role and database tell_bench created when missing; skipped when none can be had). Prints each run's
              table, then one table with tpmC, tx/s, New-Order p50/p99, abort %, Tell's round trips and the ratios
              Tell embedded / H2 and Tell on Redis / PostgreSQL; writes compare.md, compare.json and each run's
              result.json and charts into the output directory (default target/compare-<timestamp>/).
              --postgres throw-away   always use a throw-away cluster (default auto: as above)
              --isolation   every database's level: repeatable-read (default), serializable, read-committed, default
              --rounds N    run the comparison N times, the databases' order reversed every other round (each round
                            in round-<n>/), and give each pair's ratio per round and their median (rounds.md, .json)

            tell bench load [--url JDBC_URL] [--user U --password P] [--rows 100000] [--batch 128] [--threads 2]
              A bulk load as common loaders do it: a table with a primary key and a secondary index (BULK_LOAD,
              dropped and created), rows inserted through one prepared INSERT with addBatch/executeBatch in
              auto-commit mode, THREADS connections each loading its own key range; prints progress, rows/s,
              and checks that the table holds every row. Any JDBC URL; default jdbc:tell:mem:load.

            tell bench htap [--url JDBC_URL] [--olap-url JDBC_URL] [--user U --password P] [--warehouses 1]
                            [--terminals 4] [--streams 1] [--queries 1,2,...] [--query-timeout 60s] [--duration 60s]
                            [--warmup 10s] [--load-threads N] [--seed 42] [--isolation repeatable-read] [--out DIR]
              HTAP on live data (CH-benCHmark): loads TPC-C and the REGION, NATION and SUPPLIER tables, runs
              TPC-C alone on --url, then again while STREAMS analytical clients run the 22 CH-benCHmark queries
              in a loop on --olap-url (an OLAP pool's URL, e.g. from tell cluster url --pool olap; default the
              same as --url), each query in a read-only transaction of its own and cancelled after
              --query-timeout (default 60 s; counted as a timeout); --queries picks some (default all 22).
              Prints tpmC with and without the analytical load and each query's runs, timeouts and latency;
              writes htap.json, queries.png and both TPC-C runs' result files (alone/, mixed/) into the output
              directory (default target/htap-<timestamp>/). Default --url jdbc:tell:mem:htap.

            tell bench ch [--url JDBC_URL] [--user U --password P] [--queries 1,2,...] [--repeat 5]
                          [--query-timeout 60s] [--seed 42] [--explain]
              The 22 CH-benCHmark queries alone on a quiet database: loads TPC-C's 1 warehouse and the REGION,
              NATION and SUPPLIER tables, then runs each query REPEAT times in a row (cancelled after
              --query-timeout) and prints its first run, the median and the fastest of the others, and the sum
              of the medians. Default --url jdbc:tell:mem:ch (add ?parallelism=N for intra-query parallelism).
              --explain  print each query's plan before its runs (EXPLAIN PLAN FOR, or the database's EXPLAIN)""";

    private static final Map<String, ComparedDatabase> BY_KEY = Map.of(
            "tell-embedded", ComparedDatabase.tellEmbedded(), "h2", ComparedDatabase.h2(),
            "tell-redis", ComparedDatabase.tellOverRedis());
    private static final List<String> ORDER = List.of("tell-embedded", "h2", "tell-redis", "postgres");

    private BenchCommand() {
    }

    static int run(String[] argv) throws Exception {
        if (argv.length >= 2 && argv[1].equals("load")) {
            return load(argv);
        }
        if (argv.length >= 2 && argv[1].equals("htap")) {
            return htap(argv);
        }
        if (argv.length >= 2 && argv[1].equals("ch")) {
            return ch(argv);
        }
        if (argv.length < 2 || !argv[1].equals("compare")) {
            throw new Args.UsageException(argv.length < 2 ? "which benchmark? (compare, load, htap, ch)"
                    : "unknown benchmark '" + argv[1] + "'");
        }
        Args args = new Args(argv, 2, List.of("warehouses", "terminals", "duration", "warmup", "load-threads", "seed", "only",
                "postgres", "isolation", "rounds", "out"));
        String postgres = args.get("postgres", "auto");
        if (!postgres.equals("auto") && !postgres.equals("throw-away")) {
            throw new Args.UsageException("--postgres must be auto or throw-away: " + postgres);
        }
        List<ComparedDatabase> databases = new ArrayList<>();
        List<String> only = Arrays.asList(args.get("only", String.join(",", ORDER)).split(","));
        for (String key : only) {
            if (!ORDER.contains(key.trim())) {
                throw new Args.UsageException("--only takes " + String.join(", ", ORDER) + ": " + key);
            }
        }
        for (String key : ORDER) {
            if (only.stream().anyMatch(k -> k.trim().equals(key))) {
                databases.add(key.equals("postgres") ? ComparedDatabase.postgres(postgres.equals("throw-away")) : BY_KEY.get(key));
            }
        }
        Path out = Path.of(args.get("out",
                "target/compare-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        TpccOptions settings;
        try {
            settings = new TpccOptions(JdbcTarget.of("jdbc:tell:mem:"), args.intValue("warehouses", 1, 1),
                    args.intValue("terminals", 4, 1), args.seconds("duration", 30), args.seconds("warmup", 10),
                    args.intValue("load-threads", Runtime.getRuntime().availableProcessors(), 1), true, false, false, out,
                    args.longValue("seed", 42), 1_000,
                    TpccCommand.isolation(args.get("isolation", "repeatable-read")), TpccScale.SPEC);
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        int rounds = args.intValue("rounds", 1, 1);
        if (rounds == 1) {
            List<ComparedRun> runs = compareOnce(settings, databases, out);
            System.out.println("comparison: " + out.resolve("compare.md") + ", " + out.resolve("compare.json")
                    + " (each database's result.json and charts in its own directory)");
            return allGood(runs) ? 0 : 1;
        }
        List<List<ComparedRun>> all = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            System.err.printf("%ncompare: round %d of %d%n", round, rounds);
            List<ComparedDatabase> order = new ArrayList<>(databases);
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            all.add(compareOnce(settings, order, out.resolve("round-" + round)));
        }
        ComparisonRounds summary = ComparisonRounds.of(all);
        summary.print(System.out);
        summary.write(out);
        System.out.println("comparison: " + out.resolve("rounds.md") + ", " + out.resolve("rounds.json")
                + " (each round's compare.md and runs in round-<n>/)");
        return all.stream().allMatch(BenchCommand::allGood) ? 0 : 1;
    }

    /** One comparison of {@code databases} in that order, its report printed and written into {@code out}. */
    private static List<ComparedRun> compareOnce(TpccOptions settings, List<ComparedDatabase> databases, Path out)
            throws Exception {
        List<ComparedRun> runs = new Comparison(settings, databases, out, System.out, System.err).run();
        ComparisonReport report = new ComparisonReport(settings, runs);
        report.print(System.out);
        report.write(out);
        System.out.println();
        return runs;
    }

    private static boolean allGood(List<ComparedRun> runs) {
        return runs.stream().allMatch(r -> r.skipped() || r.result() != null && r.result().consistent());
    }

    private static int htap(String[] argv) throws Exception {
        Args args = new Args(argv, 2, List.of("url", "olap-url", "user", "password", "warehouses", "terminals", "streams",
                "queries", "query-timeout", "duration", "warmup", "load-threads", "seed", "isolation", "out"));
        String url = args.get("url", "jdbc:tell:mem:htap");
        String user = args.get("user", null);
        String password = args.get("password", null);
        Path out = Path.of(args.get("out",
                "target/htap-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        HtapRun.Options options;
        try {
            TpccOptions tpcc = new TpccOptions(new JdbcTarget(url, user, password), args.intValue("warehouses", 1, 1),
                    args.intValue("terminals", 4, 1), args.seconds("duration", 60), args.seconds("warmup", 10),
                    args.intValue("load-threads", Runtime.getRuntime().availableProcessors(), 1), true, false, false, out,
                    args.longValue("seed", 42), 1_000, TpccCommand.isolation(args.get("isolation", "repeatable-read")),
                    TpccScale.SPEC);
            List<Integer> queries = queries(args);
            options = new HtapRun.Options(tpcc, new JdbcTarget(args.get("olap-url", url), user, password),
                    args.intValue("streams", 1, 1), queries, (int) Math.ceil(args.seconds("query-timeout", 60)));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try {
            HtapResult result = new HtapRun(options, System.out, System.err).run();
            HtapReport.print(result, System.out);
            HtapReport.write(result, out);
            System.out.println();
            System.out.println("results: " + out.resolve("htap.json") + ", " + out.resolve("queries.png")
                    + " (each TPC-C run's result.json and charts in alone/ and mixed/)");
            boolean queriesFailed = result.queries().stream().anyMatch(q -> q.errors() > 0);
            return result.consistent() && !queriesFailed ? 0 : 1;
        } catch (SQLException e) {
            System.err.printf("tell bench htap: %s [SQLState %s]%n", e.getMessage(), e.getSQLState());
            return 1;
        }
    }

    /** --queries: numbers and ranges of CH-benCHmark queries, e.g. 1,3,5-9 (default all 22). */
    private static List<Integer> queries(Args args) {
        List<Integer> queries = new ArrayList<>();
        for (String q : args.get("queries", "1-22").split(",")) {
            String[] range = q.strip().split("-");
            try {
                int from = Integer.parseInt(range[0].strip());
                int to = range.length > 1 ? Integer.parseInt(range[1].strip()) : from;
                for (int n = from; n <= to; n++) {
                    if (n < 1 || n > 22) {
                        throw new IllegalArgumentException("--queries takes numbers from 1 to 22: " + n);
                    }
                    queries.add(n);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--queries takes query numbers and ranges, e.g. 1,3,5-9: " + q);
            }
        }
        return queries;
    }

    private static int ch(String[] argv) throws Exception {
        Args args = new Args(argv, 2, List.of("url", "user", "password", "queries", "repeat", "query-timeout", "seed"),
                List.of("explain"));
        io.tell.bench.ch.ChTimings.Options options;
        try {
            options = new io.tell.bench.ch.ChTimings.Options(new JdbcTarget(args.get("url", "jdbc:tell:mem:ch"),
                    args.get("user", null), args.get("password", null)), queries(args), args.intValue("repeat", 5, 1),
                    (int) Math.ceil(args.seconds("query-timeout", 60)), args.longValue("seed", 42), TpccScale.SPEC,
                    args.has("explain"));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        try {
            io.tell.bench.ch.ChTimings.run(options, System.out);
            return 0;
        } catch (java.sql.SQLException e) {
            System.err.printf("tell bench ch: %s [SQLState %s]%n", e.getMessage(), e.getSQLState());
            return 1;
        }
    }

    private static int load(String[] argv) throws Exception {
        Args args = new Args(argv, 2, List.of("url", "user", "password", "rows", "batch", "threads"));
        BulkLoad.Options options;
        try {
            options = new BulkLoad.Options(new JdbcTarget(args.get("url", "jdbc:tell:mem:load"), args.get("user", null),
                    args.get("password", null)), args.longValue("rows", 100_000), args.intValue("batch", 128, 1),
                    args.intValue("threads", 2, 1));
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
        System.out.printf("bulk load: %,d rows into %s, batches of %d in auto-commit mode, %d threads%n",
                options.rows(), options.target().url(), options.batch(), options.threads());
        BulkLoad.Result r = new BulkLoad(options, System.out).run();
        System.out.printf("loaded %,d rows in %.1f s: %,.0f rows/s; the table holds %,d rows%n", r.rows(), r.seconds(),
                r.rowsPerSecond(), r.counted());
        if (r.counted() != r.rows()) {
            System.err.println("bulk load: the table holds " + r.counted() + " rows, expected " + r.rows());
            return 1;
        }
        return 0;
    }
}
