package io.tell.bench.htap;

import io.tell.bench.tpcc.ResultJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;

/** An {@link HtapResult} as a table, as JSON ({@code htap.json}) and as a chart of query latencies ({@code queries.png}). */
public final class HtapReport {
    private HtapReport() {
    }

    public static void print(HtapResult r, PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "HTAP: TPC-C on %s, %d terminals; %d analytical stream%s on %s%n", r.alone().url(),
                r.alone().terminals(), r.streams(), r.streams() == 1 ? "" : "s", r.olapUrl());
        out.printf(Locale.ROOT, "  tpmC alone %,.0f; with the analytical load %,.0f (%.2f x); queries %,.0f per hour%n",
                r.alone().tpmC(), r.mixed().tpmC(), r.tpmCRatio(), r.queriesPerHour());
        if (!r.alone().scale().isSpec()) {
            out.println("  (reduced scale: not a TPC-C result)");
        }
        out.printf("  %-4s %-36s %5s %8s %6s %10s %10s %10s %7s%n", "", "query", "runs", "timeouts", "errors", "median ms",
                "mean ms", "max ms", "rows");
        for (HtapResult.Query q : r.queries()) {
            out.printf(Locale.ROOT, "  Q%-3d %-36s %5d %8d %6d %10s %10s %10s %7s%n", q.number(), q.title(), q.runs(),
                    q.timeouts(), q.errors(), ms(q.medianMs()), ms(q.meanMs()), ms(q.maxMs()),
                    q.rows() < 0 ? "-" : Long.toString(q.rows()));
        }
        for (HtapResult.Query q : r.queries()) {
            if (q.firstError() != null) {
                out.println("  Q" + q.number() + " failed: " + q.firstError());
            }
        }
        out.println(r.consistent() ? "  TPC-C consistency checks passed in both runs" : "  TPC-C consistency checks FAILED");
    }

    /** Writes {@code htap.json} and {@code queries.png} into {@code dir}. */
    public static void write(HtapResult r, Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("htap.json"), json(r));
        System.setProperty("java.awt.headless", "true");
        BitmapEncoder.saveBitmap(chart(r), dir.resolve("queries.png").toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    static String json(HtapResult r) {
        StringBuilder b = new StringBuilder("{\n");
        b.append("  \"oltpUrl\": ").append(ResultJson.string(r.alone().url())).append(",\n");
        b.append("  \"olapUrl\": ").append(ResultJson.string(r.olapUrl())).append(",\n");
        b.append(String.format(Locale.ROOT, "  \"terminals\": %d,%n  \"streams\": %d,%n  \"tpmCAlone\": %.3f,%n"
                        + "  \"tpmCWithAnalytics\": %.3f,%n  \"tpmCRatio\": %.4f,%n  \"analyticSeconds\": %.3f,%n"
                        + "  \"queriesPerHour\": %.3f,%n  \"consistent\": %b,%n  \"queries\": [%n",
                r.alone().terminals(), r.streams(), r.alone().tpmC(), r.mixed().tpmC(), r.tpmCRatio(), r.analyticSeconds(),
                r.queriesPerHour(), r.consistent()));
        for (int i = 0; i < r.queries().size(); i++) {
            HtapResult.Query q = r.queries().get(i);
            b.append(String.format(Locale.ROOT, "    {\"query\": %d, \"title\": %s, \"runs\": %d, \"timeouts\": %d,"
                            + " \"errors\": %d, \"medianMs\": %s, \"meanMs\": %s, \"maxMs\": %s, \"rows\": %d,"
                            + " \"firstError\": %s}%s%n",
                    q.number(), ResultJson.string(q.title()), q.runs(), q.timeouts(), q.errors(), number(q.medianMs()),
                    number(q.meanMs()),
                    number(q.maxMs()), q.rows(), q.firstError() == null ? "null" : ResultJson.string(q.firstError()),
                    i + 1 < r.queries().size() ? "," : ""));
        }
        return b.append("  ]\n}\n").toString();
    }

    private static CategoryChart chart(HtapResult r) {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(500)
                .title(String.format(Locale.ROOT, "CH-benCHmark queries during TPC-C (tpmC %,.0f alone, %,.0f with them)",
                        r.alone().tpmC(), r.mixed().tpmC()))
                .xAxisTitle("query").yAxisTitle("median latency (ms)").build();
        CategoryStyler style = chart.getStyler();
        style.setLegendVisible(false);
        style.setPlotGridVerticalLinesVisible(false);
        List<String> names = new ArrayList<>();
        List<Double> medians = new ArrayList<>();
        for (HtapResult.Query q : r.queries()) {
            if (q.runs() > 0) {
                names.add("Q" + q.number());
                medians.add(q.medianMs());
            }
        }
        if (names.isEmpty()) {
            names.add("none ran");
            medians.add(0.0);
        }
        chart.addSeries("median", names, medians);
        return chart;
    }

    private static String ms(double ms) {
        return Double.isNaN(ms) ? "-" : String.format(Locale.ROOT, "%,.1f", ms);
    }

    private static String number(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.3f", v);
    }
}
