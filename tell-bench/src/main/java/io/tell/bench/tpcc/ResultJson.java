package io.tell.bench.tpcc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Writes a {@link TpccResult} as JSON: the summary, one object per type, the timeline and the checks. */
public final class ResultJson {
    private ResultJson() {
    }

    public static void write(TpccResult r, Path file) throws IOException {
        Files.writeString(file, json(r));
    }

    static String json(TpccResult r) {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"url\": ").append(string(r.url())).append(",\n");
        b.append(String.format(Locale.ROOT, "  \"scale\": {\"spec\": %b, \"items\": %d, \"customersPerDistrict\": %d},%n",
                r.scale().isSpec(), r.scale().items(), r.scale().customersPerDistrict()));
        field(b, "warehouses", r.warehouses());
        field(b, "terminals", r.terminals());
        field(b, "warmupSeconds", r.warmupSeconds());
        field(b, "measuredSeconds", r.measuredSeconds());
        field(b, "tpmC", r.tpmC());
        field(b, "transactionsPerSecond", r.transactionsPerSecond());
        field(b, "skippedDeliveries", r.skippedDeliveries());
        b.append("  \"transactions\": [\n");
        for (int i = 0; i < r.types().size(); i++) {
            TypeResult t = r.types().get(i);
            LatencySummary l = t.latency();
            b.append(String.format(Locale.ROOT, "    {\"type\": %s, \"committed\": %d, \"rolledBack\": %d, \"retried\": %d,"
                            + " \"errors\": %d, \"abortPercent\": %.4f, \"latencyMs\": {\"mean\": %.3f, \"stdDev\": %.3f,"
                            + " \"p50\": %.3f, \"p95\": %.3f, \"p99\": %.3f, \"p99_9\": %.3f, \"max\": %.3f}}%s%n",
                    string(t.type().label()), t.committed(), t.rolledBack(), t.retried(), t.errors(), t.abortPercent(),
                    l.mean(), l.stdDev(), l.p50(), l.p95(), l.p99(), l.p999(), l.max(), i + 1 < r.types().size() ? "," : ""));
        }
        b.append("  ],\n  \"committedPerSecond\": {\n");
        TransactionType[] types = TransactionType.values();
        for (int i = 0; i < types.length; i++) {
            long[] perSecond = r.committedPerSecond().get(types[i]);
            b.append("    ").append(string(types[i].label())).append(": [");
            for (int s = 0; s < perSecond.length; s++) {
                b.append(s == 0 ? "" : ", ").append(perSecond[s]);
            }
            b.append(']').append(i + 1 < types.length ? "," : "").append('\n');
        }
        b.append("  },\n");
        if (r.roundTrips() != null) {
            b.append("  \"roundTrips\": {\n    \"perCommittedTransaction\": ").append(roundTrips(r.roundTrips()));
            b.append(",\n    \"aloneByType\": {");
            String sep = "\n";
            for (TransactionType type : TransactionType.values()) {
                RoundTrips t = r.roundTripsAlone().get(type);
                if (t != null) {
                    b.append(sep).append("      ").append(string(type.label())).append(": ").append(roundTrips(t));
                    sep = ",\n";
                }
            }
            b.append("\n    }\n  },\n");
        }
        b.append("  \"consistency\": [\n");
        for (int i = 0; i < r.checks().size(); i++) {
            ConsistencyCheck.Result c = r.checks().get(i);
            b.append(String.format(Locale.ROOT, "    {\"condition\": %d, \"description\": %s, \"passed\": %b, \"detail\": %s}%s%n",
                    c.condition(), string(c.description()), c.passed(), string(c.detail()), i + 1 < r.checks().size() ? "," : ""));
        }
        return b.append("  ]\n}\n").toString();
    }

    /** Round trips as a JSON object. */
    public static String roundTrips(RoundTrips t) {
        return String.format(Locale.ROOT, "{\"transactions\": %d, \"store\": %.3f, \"reads\": %.3f, \"writes\": %.3f,"
                        + " \"increments\": %.3f, \"scans\": %.3f, \"commitManager\": %.3f, \"buffered\": %.3f}",
                t.transactions(), t.store(), t.reads(), t.writes(), t.increments(), t.scans(), t.commitManager(), t.buffered());
    }

    private static void field(StringBuilder b, String name, double value) {
        b.append("  ").append(string(name)).append(": ").append(String.format(Locale.ROOT, "%.3f", value)).append(",\n");
    }

    private static void field(StringBuilder b, String name, long value) {
        b.append("  ").append(string(name)).append(": ").append(value).append(",\n");
    }

    /** A JSON string literal. */
    public static String string(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
