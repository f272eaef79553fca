package io.tell.bench.tpcc;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Draws a {@link TpccResult} as PNG charts with XChart: committed transactions per second over
 * the whole run (warm-up marked), and the latency distribution of each transaction type.
 */
public final class ResultCharts {
    /** One color per transaction type, in {@link TransactionType} order, on every chart. */
    private static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd)};
    /** Latency buckets per decade on the distribution chart. */
    private static final int BUCKETS_PER_DECADE = 10;

    private ResultCharts() {
    }

    /** Writes {@code throughput.png} and {@code latency.png} into {@code dir}. */
    public static List<Path> write(TpccResult r, Path dir) throws IOException {
        System.setProperty("java.awt.headless", "true");
        Path throughput = dir.resolve("throughput.png");
        Path latency = dir.resolve("latency.png");
        BitmapEncoder.saveBitmap(throughput(r), throughput.toString(), BitmapEncoder.BitmapFormat.PNG);
        BitmapEncoder.saveBitmap(latency(r), latency.toString(), BitmapEncoder.BitmapFormat.PNG);
        return List.of(throughput, latency);
    }

    static XYChart throughput(TpccResult r) {
        XYChart chart = new XYChartBuilder().width(1000).height(550)
                .title(String.format("TPC-C throughput: %d W, %d terminals, tpmC %,.0f", r.warehouses(), r.terminals(), r.tpmC()))
                .xAxisTitle("second since start (committed in that second)").yAxisTitle("committed transactions per second").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(0);
        // The last bucket holds only a fraction of a second: leave it out.
        int seconds = Math.max(1, (int) Math.floor(r.warmupSeconds() + r.measuredSeconds()));
        double[] x = new double[seconds];
        double[] total = new double[seconds];
        for (int s = 0; s < seconds; s++) {
            x[s] = s;
        }
        for (TransactionType type : TransactionType.values()) {
            long[] perSecond = r.committedPerSecond().get(type);
            double[] y = new double[seconds];
            for (int s = 0; s < seconds && s < perSecond.length; s++) {
                y[s] = perSecond[s];
                total[s] += perSecond[s];
            }
            color(chart.addSeries(type.label(), x, y), COLORS[type.ordinal()]).setMarker(SeriesMarkers.NONE);
        }
        color(chart.addSeries("all", x, total), Color.BLACK).setMarker(SeriesMarkers.NONE);
        if (r.warmupSeconds() > 0) {
            chart.addAnnotation(new AnnotationLine(r.warmupSeconds(), true, false));
            double top = 0;
            for (double t : total) {
                top = Math.max(top, t);
            }
            chart.addAnnotation(new AnnotationText("warm-up | measured", r.warmupSeconds(), top * 0.95, false));
        }
        return chart;
    }

    static XYChart latency(TpccResult r) {
        XYChart chart = new XYChartBuilder().width(1000).height(550)
                .title("TPC-C latency distribution per transaction type (measured interval)")
                .xAxisTitle("latency, ms (log scale)").yAxisTitle("% of transactions").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS).setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setXAxisLogarithmic(true).setMarkerSize(5);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        boolean any = false;
        for (TransactionType type : TransactionType.values()) {
            Histogram h = r.latencyMicros().get(type);
            if (h.getTotalCount() == 0) {
                continue;
            }
            List<double[]> points = distribution(h);
            double[] x = new double[points.size()];
            double[] y = new double[points.size()];
            for (int i = 0; i < points.size(); i++) {
                x[i] = points.get(i)[0];
                y[i] = points.get(i)[1];
            }
            color(chart.addSeries(type.label(), x, y), COLORS[type.ordinal()]);
            any = true;
        }
        if (!any) {
            chart.addSeries("no transactions", new double[] {1}, new double[] {0});
        }
        return chart;
    }

    private static XYSeries color(XYSeries series, Color color) {
        series.setLineColor(color);
        series.setMarkerColor(color);
        return series;
    }

    /** Points (bucket's geometric middle in ms, % of the transactions in it) over log-spaced buckets of latency. */
    static List<double[]> distribution(Histogram micros) {
        TreeMap<Integer, Long> buckets = new TreeMap<>();
        for (HistogramIterationValue v : micros.recordedValues()) {
            int bucket = (int) Math.floor(Math.log10(Math.max(1, v.getValueIteratedTo())) * BUCKETS_PER_DECADE);
            buckets.merge(bucket, v.getCountAtValueIteratedTo(), Long::sum);
        }
        List<double[]> points = new ArrayList<>();
        if (buckets.isEmpty()) {
            return points;
        }
        for (int b = buckets.firstKey(); b <= buckets.lastKey(); b++) {
            double middleMicros = Math.pow(10, (b + 0.5) / BUCKETS_PER_DECADE);
            points.add(new double[] {middleMicros / 1e3, 100.0 * buckets.getOrDefault(b, 0L) / micros.getTotalCount()});
        }
        return points;
    }
}
