package io.tell.bench.compare;

import io.tell.bench.tpcc.LatencySummary;
import io.tell.bench.tpcc.RoundTrips;
import io.tell.bench.tpcc.TpccOptions;
import io.tell.bench.tpcc.TpccResult;
import io.tell.bench.tpcc.TransactionType;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The comparison as one table (tpmC, tx/s, New-Order p50/p99, abort %, consistency, Tell's round
 * trips, and the ratios Tell embedded / H2 and Tell on Redis / PostgreSQL), then Tell's round trips
 * per transaction type and how each database was set up; as text, Markdown ({@code compare.md})
 * and JSON ({@code compare.json}).
 */
public final class ComparisonReport {
    private static final String[] HEADER = {"database", "tpmC", "tx/s", "NO p50 ms", "NO p99 ms", "abort %", "checks",
            "RT/tx", "tpmC ratio"};
    /** Each Tell database and the one it is measured against. */
    static final String[][] PAIRS = {{"tell-embedded", "h2"}, {"tell-redis", "postgres"}};

    private final TpccOptions settings;
    private final List<ComparedRun> runs;
    private final String machine;

    public ComparisonReport(TpccOptions settings, List<ComparedRun> runs) {
        this.settings = settings;
        this.runs = List.copyOf(runs);
        this.machine = Machine.describe();
    }

    public void print(PrintStream out) {
        out.println();
        out.println(title());
        out.println("machine: " + machine);
        out.println();
        List<String[]> rows = rows();
        int[] width = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                line.append(i == 0 ? String.format("%-" + width[i] + "s", row[i]) : String.format("  %" + width[i] + "s", row[i]));
            }
            out.println(line.toString().stripTrailing());
        }
        out.println();
        ratios().forEach(out::println);
        out.println(legend());
        List<String[]> trips = roundTripRows();
        if (trips.size() > 1) {
            out.println();
            out.println("Tell round trips per transaction, store calls + commit-manager calls:");
            for (String[] row : trips) {
                StringBuilder line = new StringBuilder(String.format("%-17s", row[0]));
                for (int i = 1; i < row.length; i++) {
                    line.append(String.format("  %15s", row[i]));
                }
                out.println(line.toString().stripTrailing());
            }
            out.println("(<type> alone: after the run, one connection running only that type; run: the measured interval's"
                    + " round trips per commit, aborted attempts included)");
        }
        out.println();
        out.println("set-ups:");
        for (ComparedRun r : runs) {
            out.println("  " + r.name() + ": " + setupLine(r));
        }
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("compare.md"), markdown());
        Files.writeString(dir.resolve("compare.json"), ComparisonJson.json(settings, runs, machine, PAIRS));
    }

    String markdown() {
        StringBuilder b = new StringBuilder("# " + title() + "\n\nMachine: " + machine + "\n\n");
        for (String[] row : table(rows())) {
            b.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        b.append('\n');
        ratios().forEach(r -> b.append(r).append("  \n"));
        b.append(legend()).append("\n");
        List<String[]> trips = roundTripRows();
        if (trips.size() > 1) {
            b.append("\nTell round trips per transaction, store calls + commit-manager calls:\n\n");
            for (String[] row : table(trips)) {
                b.append("| ").append(String.join(" | ", row)).append(" |\n");
            }
        }
        b.append("\nSet-ups:\n\n");
        for (ComparedRun r : runs) {
            b.append("- ").append(r.name()).append(": ").append(setupLine(r)).append('\n');
        }
        return b.toString();
    }

    private String title() {
        return String.format(Locale.ROOT, "TPC-C comparison: %d warehouse%s, %d terminals, %.0f s measured after %.0f s warm-up,"
                        + " %s, %s, seed %d; the same driver and settings for every database, one after another in one JVM%s",
                settings.warehouses(), settings.warehouses() == 1 ? "" : "s", settings.terminals(), settings.durationSeconds(),
                settings.warmupSeconds(), settings.specWaits() ? "spec keying and think times" : "no think time",
                isolationName(settings.isolation()), settings.seed(),
                settings.scale().isSpec() ? "" : " (REDUCED SCALE, tests only: not a TPC-C result)");
    }

    private static String isolationName(int level) {
        return switch (level) {
            case java.sql.Connection.TRANSACTION_READ_COMMITTED -> "READ COMMITTED";
            case java.sql.Connection.TRANSACTION_REPEATABLE_READ -> "REPEATABLE READ";
            case java.sql.Connection.TRANSACTION_SERIALIZABLE -> "SERIALIZABLE";
            default -> "each driver's default isolation";
        };
    }

    private static String legend() {
        return "NO = New-Order (latency from first attempt to commit); abort % = conflict aborts / attempts, all types;"
                + " checks = TPC-C §3.3.2 conditions 1-4; RT/tx = Tell's store round trips + commit-manager calls per"
                + " committed transaction";
    }

    private List<String[]> rows() {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (ComparedRun r : runs) {
            TpccResult t = r.result();
            if (t == null) {
                rows.add(new String[] {r.name(), r.status(), "", "", "", "", "", "", ""});
                continue;
            }
            LatencySummary no = t.type(TransactionType.NEW_ORDER).latency();
            RoundTrips trips = t.roundTrips();
            rows.add(new String[] {r.name(), String.format(Locale.ROOT, "%,.0f", t.tpmC()),
                    String.format(Locale.ROOT, "%,.1f", t.transactionsPerSecond()), String.format(Locale.ROOT, "%.2f", no.p50()),
                    String.format(Locale.ROOT, "%.2f", no.p99()), String.format(Locale.ROOT, "%.2f", t.abortPercent()),
                    t.consistent() ? (t.errors() == 0 ? "pass" : "pass, " + t.errors() + " errors") : "FAIL",
                    trips == null ? "-" : String.format(Locale.ROOT, "%.1f + %.1f", trips.store(), trips.commitManager()),
                    ratioCell(r.key())});
        }
        return rows;
    }

    private String ratioCell(String key) {
        for (String[] pair : PAIRS) {
            if (pair[0].equals(key)) {
                Double ratio = ratio(pair[0], pair[1]);
                return ratio == null ? "-" : String.format(Locale.ROOT, "%.2f × %s", ratio, name(pair[1]));
            }
        }
        return "";
    }

    private List<String> ratios() {
        List<String> lines = new ArrayList<>();
        for (String[] pair : PAIRS) {
            Double tpmC = ratio(pair[0], pair[1]);
            if (tpmC != null) {
                double tps = find(pair[0]).transactionsPerSecond() / find(pair[1]).transactionsPerSecond();
                lines.add(String.format(Locale.ROOT, "%s / %s: tpmC %.3f, tx/s %.3f (goal: at least 1)", name(pair[0]),
                        name(pair[1]), tpmC, tps));
            }
        }
        return lines;
    }

    /** Rows of round trips by type (and for the run), one column per Tell database that reported them. */
    private List<String[]> roundTripRows() {
        List<TpccResult> tell = new ArrayList<>();
        List<String> header = new ArrayList<>(List.of(""));
        for (ComparedRun r : runs) {
            if (r.result() != null && r.result().roundTrips() != null) {
                tell.add(r.result());
                header.add(r.name());
            }
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(header.toArray(String[]::new));
        for (TransactionType type : TransactionType.values()) {
            String[] row = new String[tell.size() + 1];
            row[0] = type.label() + " alone";
            for (int i = 0; i < tell.size(); i++) {
                row[i + 1] = cell(tell.get(i).roundTripsAlone().get(type));
            }
            rows.add(row);
        }
        String[] run = new String[tell.size() + 1];
        run[0] = "run, per commit";
        for (int i = 0; i < tell.size(); i++) {
            run[i + 1] = cell(tell.get(i).roundTrips());
        }
        rows.add(run);
        return rows;
    }

    private static String cell(RoundTrips t) {
        return t == null ? "-" : String.format(Locale.ROOT, "%.1f + %.1f", t.store(), t.commitManager());
    }

    /** A Markdown table: the header, the separator, the rows. */
    private static List<String[]> table(List<String[]> rows) {
        List<String[]> table = new ArrayList<>(rows);
        String[] separator = new String[rows.get(0).length];
        java.util.Arrays.fill(separator, "---");
        table.add(1, separator);
        return table;
    }

    private static String setupLine(ComparedRun r) {
        if (r.result() != null) {
            return r.url() + " — " + r.setup();
        }
        return (r.skipped() ? "skipped: " : "FAILED: ") + r.problem() + (r.url() == null ? "" : " (" + r.url() + ")");
    }

    private Double ratio(String key, String baseline) {
        return ComparedRun.tpmCRatio(runs, key, baseline);
    }

    private TpccResult find(String key) {
        return ComparedRun.result(runs, key);
    }

    private String name(String key) {
        return runs.stream().filter(r -> r.key().equals(key)).map(ComparedRun::name).findFirst().orElse(key);
    }
}
