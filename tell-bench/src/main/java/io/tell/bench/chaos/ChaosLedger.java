package io.tell.bench.chaos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * What the processing nodes said, line by line ({@link ChaosNode}): which transfer ids began
 * under which tid, which were acknowledged, definitely failed or left in doubt, and when each
 * node acknowledged (by this process's clock), for the time to full service after a fault.
 */
final class ChaosLedger {
    /** A transfer attempt that began. */
    record Begun(String node, long tid, int from, int to) {
    }

    final Map<String, Begun> begun = new ConcurrentHashMap<>();
    final Set<String> acked = ConcurrentHashMap.newKeySet();
    /** Definite failures: transfer id to "CODE message". */
    final Map<String, String> failed = new ConcurrentHashMap<>();
    final Set<String> doubt = ConcurrentHashMap.newKeySet();
    /** Definite failures by error code. */
    final Map<String, java.util.concurrent.atomic.LongAdder> failCodes = new ConcurrentHashMap<>();
    private final Map<String, List<Long>> ackTimes = new ConcurrentHashMap<>();

    /** Takes one line of {@code node}; returns it split when it is not a transfer event (READY, PAUSED, DONE), else null. */
    String[] take(String node, String line) {
        String[] f = line.trim().split(" ");
        switch (f[0]) {
            case "BEGIN" -> begun.put(f[1], new Begun(node, Long.parseLong(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4])));
            case "ACK" -> {
                acked.add(f[1]);
                List<Long> times = ackTimes.computeIfAbsent(node, n -> Collections.synchronizedList(new ArrayList<>()));
                times.add(System.nanoTime());
            }
            case "FAIL" -> {
                String[] parts = line.trim().split(" ", 3);
                failed.put(f[1], parts.length > 2 ? parts[2] : "?");
                failCodes.computeIfAbsent(f.length > 2 ? f[2] : "?", c -> new java.util.concurrent.atomic.LongAdder()).increment();
            }
            case "DOUBT" -> doubt.add(f[1]);
            default -> {
                return f;
            }
        }
        return null;
    }

    /** When {@code node} first acknowledged a transfer at or after {@code sinceNanos}, or null. */
    Long firstAckAfter(String node, long sinceNanos) {
        List<Long> times = ackTimes.get(node);
        if (times == null) {
            return null;
        }
        synchronized (times) {
            for (int i = times.size() - 1; i >= 0 && times.get(i) - sinceNanos >= 0; i--) {
                if (i == 0 || times.get(i - 1) - sinceNanos < 0) {
                    return times.get(i);
                }
            }
        }
        return null;
    }

    /**
     * Acknowledged transfers per second around a fault at {@code faultNanos}: the mean over the
     * 3 s before it, the lowest over 500 ms windows in the 5 s after it, and the milliseconds
     * from the fault to the first 500 ms window, from the lowest one on, with at least 80 % of
     * the rate before (0: it never dropped below; -1: not within 20 s).
     */
    ChaosReport.Throughput throughputAround(long faultNanos) {
        long[] acks = ackTimes.values().stream().flatMap(times -> {
            synchronized (times) {
                return List.copyOf(times).stream();
            }
        }).mapToLong(Long::longValue).sorted().toArray();
        long half = TimeUnit.MILLISECONDS.toNanos(500);
        double before = count(acks, faultNanos - 6 * half, faultNanos) / 3.0;
        double lowest = Double.MAX_VALUE;
        long lowestAt = faultNanos;
        for (int k = 0; k < 10; k++) {
            long from = faultNanos + k * half;
            double rate = count(acks, from, from + half) * 2.0;
            if (rate < lowest) {
                lowest = rate;
                lowestAt = from;
            }
        }
        long back = lowest >= 0.8 * before ? 0 : -1;
        for (long w = lowestAt; back < 0 && w < faultNanos + 40 * half; w += half / 10) {
            if (count(acks, w, w + half) * 2.0 >= 0.8 * before) {
                back = TimeUnit.NANOSECONDS.toMillis(w - faultNanos);
            }
        }
        return new ChaosReport.Throughput(before, lowest, back);
    }

    /** How many of the sorted {@code times} lie in [from, to). */
    private static int count(long[] times, long from, long to) {
        return lowerBound(times, to) - lowerBound(times, from);
    }

    private static int lowerBound(long[] times, long t) {
        int lo = 0;
        int hi = times.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] - t < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The tids {@code node} printed. */
    List<Long> tidsOf(String node) {
        return begun.values().stream().filter(b -> b.node().equals(node)).map(Begun::tid).toList();
    }

    /** Began but neither acknowledged nor definitely failed (killed in flight, or TX_COMMIT_PENDING). */
    boolean inDoubt(String id) {
        return begun.containsKey(id) && !acked.contains(id) && !failed.containsKey(id);
    }
}
