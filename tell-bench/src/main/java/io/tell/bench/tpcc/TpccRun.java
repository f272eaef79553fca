package io.tell.bench.tpcc;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The measured phase: opens one connection per terminal, runs the terminals through warm-up
 * and the measured interval, prints a line of progress every few seconds, and merges what the
 * terminals recorded. On Tell it also reads the nodes' round-trip counters at the start and the
 * end of the measured interval.
 */
final class TpccRun {
    private static final long PROGRESS_MILLIS = 5_000;

    /**
     * What the terminals recorded, merged per type; on Tell the round trips of the measured
     * interval per committed transaction (aborted attempts included), else null.
     */
    record Recorded(RunClock clock, Map<TransactionType, TypeStats> stats, long skippedDeliveries, RoundTrips roundTrips) {
    }

    private final TpccOptions options;
    private final PrintStream progress;

    TpccRun(TpccOptions options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    Recorded run() throws SQLException, InterruptedException {
        NuRandConstants c = NuRandConstants.forRun(options.seed());
        SqlErrors errors = new SqlErrors(progress);
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder newOrders = new LongAdder();
        List<Connection> connections = new ArrayList<>();
        try {
            for (int t = 0; t < options.terminals(); t++) {
                Connection connection = options.target().connect();
                connections.add(connection);
                if (options.isolation() != 0) {
                    connection.setTransactionIsolation(options.isolation());
                }
            }
        } catch (SQLException e) {
            for (Connection open : connections) {
                open.close();
            }
            throw e;
        }
        TellCounters counters = TellCounters.of(connections);
        RunClock clock = RunClock.startingNow(options.warmupSeconds(), options.durationSeconds());
        List<Terminal> terminals = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < options.terminals(); t++) {
            TerminalHome home = TerminalHome.of(t, options.warehouses(), options.selectForUpdate());
            TpccRandom random = new TpccRandom(options.seed() * 1_000_003 + t, c, options.scale());
            Terminal terminal = new Terminal(connections.get(t), home, random, clock, options.specWaits(), errors, stop, newOrders);
            terminals.add(terminal);
            threads.add(Thread.ofPlatform().name("tpcc-terminal-" + t).unstarted(terminal));
        }
        threads.forEach(Thread::start);
        TellCounters.Sample[] samples = watch(clock, newOrders, counters);
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        Map<TransactionType, TypeStats> merged = new EnumMap<>(TransactionType.class);
        long skipped = 0;
        for (TransactionType type : TransactionType.values()) {
            merged.put(type, new TypeStats(clock.totalSeconds()));
        }
        for (Terminal terminal : terminals) {
            terminal.stats().forEach((type, s) -> merged.get(type).merge(s));
            skipped += terminal.skippedDeliveries();
        }
        long committed = merged.values().stream().mapToLong(s -> s.committed).sum();
        RoundTrips roundTrips = counters.present() ? samples[1].since(samples[0], committed) : null;
        return new Recorded(clock, merged, skipped, roundTrips);
    }

    /**
     * Waits for the end of the run, printing the New-Order rate of the last few seconds; returns
     * the counters sampled at the start and at the end of the measured interval.
     */
    private TellCounters.Sample[] watch(RunClock clock, LongAdder newOrders, TellCounters counters)
            throws InterruptedException {
        TellCounters.Sample[] samples = new TellCounters.Sample[2];
        long lastCount = 0;
        long lastTime = clock.start();
        while (true) {
            long now = System.nanoTime();
            if (samples[0] == null && now >= clock.measureStart()) {
                samples[0] = counters.sample();
            }
            long left = clock.measureEnd() - now;
            if (left <= 0) {
                samples[1] = counters.sample();
                return samples;
            }
            long wake = samples[0] == null ? Math.min(clock.measureStart(), clock.measureEnd()) - now : left;
            Thread.sleep(Math.min(PROGRESS_MILLIS, Math.max(0, wake) / 1_000_000 + 1));
            now = System.nanoTime();
            long count = newOrders.sum();
            if (progress != null && now < clock.measureEnd()) {
                double rate = (count - lastCount) * 60e9 / Math.max(1, now - lastTime);
                progress.printf("tpcc: %4.0f s %-8s New-Order %,.0f/min%n", (now - clock.start()) / 1e9,
                        now < clock.measureStart() ? "warm-up" : "measured", rate);
            }
            lastCount = count;
            lastTime = now;
        }
    }
}
