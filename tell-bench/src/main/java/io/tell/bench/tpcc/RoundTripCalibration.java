package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Round trips per transaction type on Tell, measured after the run with each type alone: one
 * connection (terminal 0's home) runs executions of one type back to back, nothing else
 * running, and the node's counters are read before and after. With concurrent terminals the
 * counters cannot tell the types apart; alone, each type's round trips are its own (a conflict
 * is unlikely, and its retry would be counted in). At least {@value #MIN_RUNS} executions per
 * type, more while they take under {@value #MILLIS_PER_TYPE} ms, at most {@value #MAX_RUNS}.
 */
final class RoundTripCalibration {
    static final int MIN_RUNS = 10;
    static final int MAX_RUNS = 500;
    static final long MILLIS_PER_TYPE = 1_000;
    private static final int MAX_ATTEMPTS = 100;

    private final TpccOptions options;

    RoundTripCalibration(TpccOptions options) {
        this.options = options;
    }

    /** Round trips per execution of each type (rolled-back New-Orders included); empty when the target is not Tell. */
    Map<TransactionType, RoundTrips> run() throws SQLException {
        Map<TransactionType, RoundTrips> byType = new EnumMap<>(TransactionType.class);
        try (Connection connection = options.target().connect()) {
            TellCounters counters = TellCounters.of(List.of(connection));
            if (!counters.present()) {
                return byType;
            }
            if (options.isolation() != 0) {
                connection.setTransactionIsolation(options.isolation());
            }
            TerminalHome home = TerminalHome.of(0, options.warehouses(), options.selectForUpdate());
            long seed = options.seed() * 1_000_003 - 1;
            TpccRandom random = new TpccRandom(seed, NuRandConstants.forRun(options.seed()), options.scale());
            Map<TransactionType, TpccTransaction> transactions = TpccTransaction.all(connection, home);
            for (TransactionType type : TransactionType.values()) {
                byType.put(type, measure(connection, transactions.get(type), random, counters));
            }
        }
        return byType;
    }

    private static RoundTrips measure(Connection connection, TpccTransaction transaction, TpccRandom random,
                                      TellCounters counters) throws SQLException {
        TellCounters.Sample before = counters.sample();
        long deadline = System.nanoTime() + MILLIS_PER_TYPE * 1_000_000;
        int runs = 0;
        while (runs < MIN_RUNS || runs < MAX_RUNS && System.nanoTime() < deadline) {
            runOnce(connection, transaction.next(random));
            runs++;
        }
        return counters.sample().since(before, runs);
    }

    private static void runOnce(Connection connection, TpccTransaction.Execution execution) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                execution.run();
                return;
            } catch (SQLException e) {
                connection.rollback();
                if (!SqlErrors.isConflict(e) || attempt >= MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
