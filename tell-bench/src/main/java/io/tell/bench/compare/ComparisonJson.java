package io.tell.bench.compare;

import io.tell.bench.tpcc.LatencySummary;
import io.tell.bench.tpcc.ResultJson;
import io.tell.bench.tpcc.RoundTrips;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccResult;
import io.tell.bench.tpcc.TransactionType;
import java.util.List;
import java.util.Locale;

/**
 * The comparison as JSON ({@code compare.json}): the settings, the machine, the tpmC ratios, and
 * per database its status, set-up, headline numbers and Tell's round trips; each run's own
 * {@code result.json} (in the directory named by its key) has the rest.
 */
final class ComparisonJson {
    private ComparisonJson() {
    }

    static String json(TpccOptions settings, List<ComparedRun> runs, String machine, String[][] pairs) {
        StringBuilder b = new StringBuilder("{\n");
        b.append(String.format(Locale.ROOT, "  \"warehouses\": %d,\n  \"terminals\": %d,\n  \"warmupSeconds\": %.1f,\n"
                        + "  \"measuredSeconds\": %.1f,\n  \"seed\": %d,\n  \"machine\": %s,\n", settings.warehouses(),
                settings.terminals(), settings.warmupSeconds(), settings.durationSeconds(), settings.seed(),
                ResultJson.string(machine)));
        b.append("  \"tpmCRatios\": [");
        for (int i = 0; i < pairs.length; i++) {
            Double ratio = ComparedRun.tpmCRatio(runs, pairs[i][0], pairs[i][1]);
            b.append(String.format(Locale.ROOT, "%s{\"of\": %s, \"to\": %s, \"value\": %s}", i == 0 ? "" : ", ",
                    ResultJson.string(pairs[i][0]), ResultJson.string(pairs[i][1]),
                    ratio == null ? "null" : String.format(Locale.ROOT, "%.4f", ratio)));
        }
        b.append("],\n  \"runs\": [\n");
        for (int i = 0; i < runs.size(); i++) {
            ComparedRun r = runs.get(i);
            b.append("    {\"key\": ").append(ResultJson.string(r.key()))
                    .append(", \"name\": ").append(ResultJson.string(r.name()));
            b.append(", \"status\": ").append(ResultJson.string(r.status()));
            if (r.url() != null) {
                b.append(", \"url\": ").append(ResultJson.string(r.url()))
                        .append(", \"setup\": ").append(ResultJson.string(r.setup()));
            }
            if (r.problem() != null) {
                b.append(", \"problem\": ").append(ResultJson.string(r.problem()));
            }
            TpccResult t = r.result();
            if (t != null) {
                LatencySummary no = t.type(TransactionType.NEW_ORDER).latency();
                b.append(String.format(Locale.ROOT, ", \"tpmC\": %.1f, \"transactionsPerSecond\": %.2f,"
                                + " \"newOrderP50Ms\": %.3f, \"newOrderP99Ms\": %.3f, \"abortPercent\": %.3f, \"errors\": %d,"
                                + " \"consistent\": %b, \"result\": %s", t.tpmC(), t.transactionsPerSecond(), no.p50(), no.p99(),
                        t.abortPercent(), t.errors(), t.consistent(), ResultJson.string(r.key() + "/result.json")));
                if (t.roundTrips() != null) {
                    b.append(", \"roundTripsPerCommit\": ").append(ResultJson.roundTrips(t.roundTrips()));
                    b.append(", \"roundTripsAlone\": {");
                    String sep = "";
                    for (TransactionType type : TransactionType.values()) {
                        RoundTrips alone = t.roundTripsAlone().get(type);
                        if (alone != null) {
                            b.append(sep).append(ResultJson.string(type.label())).append(": ")
                                    .append(ResultJson.roundTrips(alone));
                            sep = ", ";
                        }
                    }
                    b.append('}');
                }
            }
            b.append('}').append(i + 1 < runs.size() ? "," : "").append('\n');
        }
        return b.append("  ]\n}\n").toString();
    }
}
