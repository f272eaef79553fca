package io.tell.bench.compare;

import io.tell.bench.tpcc.TpccResult;
import java.util.List;

/**
 * How one database of the comparison went: its result, or why there is none ({@code skipped}:
 * not available here; otherwise the run failed).
 */
public record ComparedRun(String key, String name, String url, String setup, TpccResult result, String problem,
                          boolean skipped) {

    static ComparedRun ran(ComparedDatabase db, String url, String setup, TpccResult result) {
        return new ComparedRun(db.key(), db.name(), url, setup, result, null, false);
    }

    static ComparedRun skipped(ComparedDatabase db, String why) {
        return new ComparedRun(db.key(), db.name(), null, null, null, why, true);
    }

    static ComparedRun failed(ComparedDatabase db, String url, String setup, String why) {
        return new ComparedRun(db.key(), db.name(), url, setup, null, why, false);
    }

    /** {@code ran}, {@code skipped} or {@code failed}. */
    String status() {
        return result != null ? "ran" : skipped ? "skipped" : "failed";
    }

    /** The result of the run of {@code key}, or null when it has none. */
    static TpccResult result(List<ComparedRun> runs, String key) {
        return runs.stream().filter(r -> r.key().equals(key) && r.result() != null).map(ComparedRun::result).findFirst()
                .orElse(null);
    }

    /** tpmC of {@code key} over tpmC of {@code baseline}, or null without both. */
    static Double tpmCRatio(List<ComparedRun> runs, String key, String baseline) {
        TpccResult a = result(runs, key);
        TpccResult b = result(runs, baseline);
        return a == null || b == null || b.tpmC() == 0 ? null : a.tpmC() / b.tpmC();
    }
}
