package io.tell.cli;

import io.tell.error.TellException;
import java.util.Arrays;

/** The {@code tell} command line: one entry point, one subcommand per job. */
public final class Tell {
    private static final String USAGE = """
            usage: tell COMMAND [options]
            commands:
              bank        bank-transfer workload with an invariant check (the embedded demo)
              sql         interactive SQL shell (sqlline): tell sql [JDBC_URL], default jdbc:tell:mem:
              commitmgr   run a commit manager service: --port P --store URL (several form a cluster)
              pn          run a processing node serving PostgreSQL clients: --port P [--url URL | --store URL --cm LIST]
              cluster     cluster status --store URL: commit managers, processing nodes and their leases, pools, base, lav;
                          cluster url --store URL --pool NAME: a pool's PostgreSQL JDBC URL;
                          cluster up [--dir DIR] / cluster down [--dir DIR]: a whole local cluster from one command
              tpcc        the TPC-C benchmark over JDBC (any JDBC URL), with consistency checks
              chaos       kill processing nodes, a commit manager and a Redis primary under bank transfers; check
              bench       bench compare: TPC-C on Tell embedded, H2, Tell on Redis and PostgreSQL, one table;
                          bench load: a bulk load through plain JDBC batches (any JDBC URL);
                          bench htap: TPC-C with and without the 22 CH-benCHmark queries on live data
              jmh         run the JMH microbenchmarks (JMH options follow, e.g. -l to list)
              help        this text
            """;

    private Tell() {
    }

    public static void main(String[] argv) throws Exception {
        System.exit(run(argv));
    }

    static int run(String[] argv) throws Exception {
        String command = argv.length == 0 ? "help" : argv[0];
        try {
            switch (command) {
                case "bank":
                    return BankCommand.run(argv);
                case "sql":
                    return SqlCommand.run(Arrays.copyOfRange(argv, 1, argv.length));
                case "tpcc":
                    return TpccCommand.run(argv);
                case "bench":
                    return BenchCommand.run(argv);
                case "cluster":
                    return ClusterCommand.run(argv);
                case "chaos":
                    return ChaosCommand.run(argv);
                case "commitmgr":
                    io.tell.cm.CommitManagerMain.main(Arrays.copyOfRange(argv, 1, argv.length));
                    return 0;
                case "pn":
                    io.tell.server.PgServerMain.main(Arrays.copyOfRange(argv, 1, argv.length));
                    return 0;
                case "jmh":
                    org.openjdk.jmh.Main.main(Arrays.copyOfRange(argv, 1, argv.length));
                    return 0;
                case "help":
                case "--help":
                case "-h":
                    System.out.print(USAGE);
                    System.out.println();
                    System.out.println(BankCommand.USAGE);
                    System.out.println();
                    System.out.println(TpccCommand.USAGE);
                    System.out.println();
                    System.out.println(BenchCommand.USAGE);
                    System.out.println();
                    System.out.println(ChaosCommand.USAGE);
                    System.out.println();
                    System.out.println(ClusterCommand.USAGE);
                    return 0;
                default:
                    System.err.println("tell: unknown command '" + command + "'");
                    System.err.print(USAGE);
                    return 2;
            }
        } catch (Args.UsageException e) {
            System.err.println("tell " + command + ": " + e.getMessage());
            System.err.println(switch (command) {
                case "tpcc" -> TpccCommand.USAGE;
                case "bench" -> BenchCommand.USAGE;
                case "cluster" -> ClusterCommand.USAGE;
                case "chaos" -> ChaosCommand.USAGE;
                default -> BankCommand.USAGE;
            });
            return 2;
        } catch (TellException e) {
            System.err.println("tell " + command + ": " + e.getMessage() + " [" + e.code() + (e.retriable() ? ", retriable" : "") + "]");
            return 1;
        }
    }
}
