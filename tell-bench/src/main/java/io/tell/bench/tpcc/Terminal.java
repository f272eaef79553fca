package io.tell.bench.tpcc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One emulated terminal: a thread with its own connection, home warehouse and district, and
 * deck. It deals a card, draws that transaction's input, runs it until it commits, is rolled
 * back on purpose, or fails with an error other than a conflict (a conflict rolls back and runs
 * the same input again), and records the outcome. With spec waits it sleeps the keying time
 * before and a negative-exponential think time after each transaction (§5.2.5); by default it
 * does not wait at all.
 */
final class Terminal implements Runnable {
    private static final int MAX_ATTEMPTS = 1_000;
    private static final long BASE_BACKOFF_NANOS = 20_000;
    private static final long MAX_BACKOFF_NANOS = 2_500_000;

    private final Connection connection;
    private final Map<TransactionType, TpccTransaction> transactions;
    private final Map<TransactionType, TypeStats> stats = new EnumMap<>(TransactionType.class);
    private final TpccRandom random;
    private final TransactionDeck deck;
    private final RunClock clock;
    private final boolean specWaits;
    private final SqlErrors errors;
    private final AtomicBoolean stop;
    private final LongAdder liveNewOrders;
    private final Delivery delivery;

    Terminal(Connection connection, TerminalHome home, TpccRandom random, RunClock clock, boolean specWaits,
             SqlErrors errors, AtomicBoolean stop, LongAdder liveNewOrders) throws SQLException {
        this.connection = connection;
        this.random = random;
        this.deck = new TransactionDeck(random);
        this.clock = clock;
        this.specWaits = specWaits;
        this.errors = errors;
        this.stop = stop;
        this.liveNewOrders = liveNewOrders;
        this.transactions = TpccTransaction.all(connection, home);
        this.delivery = (Delivery) transactions.get(TransactionType.DELIVERY);
        for (TransactionType type : TransactionType.values()) {
            stats.put(type, new TypeStats(clock.totalSeconds()));
        }
    }

    Map<TransactionType, TypeStats> stats() {
        return stats;
    }

    long skippedDeliveries() {
        return delivery.skippedDistricts();
    }

    @Override
    public void run() {
        try {
            while (!stop.get() && System.nanoTime() < clock.measureEnd()) {
                TransactionType type = deck.next();
                if (specWaits && !sleep(type.keyingSeconds() * 1000L)) {
                    return;
                }
                runOne(transactions.get(type));
                if (specWaits && !sleep(thinkMillis(type))) {
                    return;
                }
            }
        } finally {
            try {
                connection.rollback();
                connection.close();
            } catch (SQLException ignored) {
                // closing after the run: nothing left to save
            }
        }
    }

    /**
     * Waits a random time before a retry, up to twice as long after each conflict in a row
     * (20 µs, 40 µs, … at most 2.5 ms), so transactions that keep meeting on a hot row
     * (WAREHOUSE, DISTRICT) spread out instead of aborting each other again at once.
     */
    private void backOff(int conflicts) {
        long capNanos = Math.min(MAX_BACKOFF_NANOS, BASE_BACKOFF_NANOS << Math.min(conflicts - 1, 7));
        java.util.concurrent.locks.LockSupport.parkNanos(1 + (long) (random.nextDouble() * capNanos));
    }

    private void runOne(TpccTransaction transaction) {
        TpccTransaction.Execution execution = transaction.next(random);
        long started = System.nanoTime();
        int conflicts = 0;
        TpccTransaction.Outcome outcome = null;
        SQLException error = null;
        while (outcome == null && error == null) {
            try {
                outcome = execution.run();
            } catch (SQLException e) {
                rollbackQuietly();
                if (SqlErrors.isConflict(e) && ++conflicts < MAX_ATTEMPTS && !stop.get()) {
                    backOff(conflicts);
                    continue;
                }
                error = e;
            }
        }
        long ended = System.nanoTime();
        TypeStats s = stats.get(transaction.type());
        if (outcome == TpccTransaction.Outcome.COMMITTED) {
            s.committedPerSecond[Math.min(clock.second(ended), s.committedPerSecond.length - 1)]++;
            if (transaction.type() == TransactionType.NEW_ORDER) {
                liveNewOrders.increment();
            }
        }
        if (!clock.measured(ended)) {
            return;
        }
        s.retried += conflicts - (error != null && SqlErrors.isConflict(error) ? 1 : 0);
        if (error != null) {
            s.errors++;
            errors.report(transaction.type(), error);
            return;
        }
        if (outcome == TpccTransaction.Outcome.COMMITTED) {
            s.committed++;
        } else {
            s.rolledBack++;
        }
        s.latencyMicros.recordValue(Math.max(1, (ended - started) / 1_000));
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection may be broken; the next statement will tell
        }
    }

    /** Think time: -ln(r) × mean, at most ten times the mean (§5.2.5.4). */
    private long thinkMillis(TransactionType type) {
        double r = Math.max(1e-12, random.nextDouble());
        return (long) (Math.min(-Math.log(r), 10) * type.meanThinkSeconds() * 1000);
    }

    /** Sleeps, cut short by the end of the run; false when the run ended. */
    private boolean sleep(long millis) {
        long until = Math.min(System.nanoTime() + millis * 1_000_000, clock.measureEnd());
        while (!stop.get()) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return System.nanoTime() < clock.measureEnd();
            }
            try {
                Thread.sleep(Math.min(100, left / 1_000_000 + 1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }
}
