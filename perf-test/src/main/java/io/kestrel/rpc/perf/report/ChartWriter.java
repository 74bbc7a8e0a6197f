package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Draws the PNG chart with XChart: one column per workload; the top row shows TPS per system, the
 * bottom row request and response bytes per call. Only successful configurations are drawn.
 */
final class ChartWriter {
    static final String FILE = "perf-chart.png";
    private static final int WIDTH = 620;
    private static final int HEIGHT = 440;

    private ChartWriter() {
    }

    static void write(List<RunResult> results, List<Workload> workloads, Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<CategoryChart> tpsCharts = new ArrayList<>();
        List<CategoryChart> byteCharts = new ArrayList<>();
        for (Workload w : workloads) {
            List<RunResult> ok = results.stream()
                    .filter(r -> r.workload() == w && r.status() == RunResult.Status.OK && !r.pipelined()).toList();
            if (ok.isEmpty()) {
                continue;
            }
            List<String> systems = ok.stream().map(RunResult::system).toList();

            CategoryChart tps = chart("TPS: " + w.label(), "calls per second");
            tps.getStyler().setLegendVisible(false);
            tps.addSeries("TPS", systems, ok.stream().map(r -> (Number) r.tps()).toList());
            tpsCharts.add(tps);

            CategoryChart bytes = chart("Bytes per call on the wire: " + w.label(), "bytes");
            bytes.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            bytes.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
            bytes.addSeries("request", systems, ok.stream().map(r -> (Number) r.requestBytesPerCall()).toList());
            bytes.addSeries("response", systems, ok.stream().map(r -> (Number) r.responseBytesPerCall()).toList());
            byteCharts.add(bytes);
        }
        if (tpsCharts.isEmpty()) {
            throw new IllegalStateException("no successful configuration to draw");
        }
        List<CategoryChart> grid = new ArrayList<>(tpsCharts);
        grid.addAll(byteCharts);
        BitmapEncoder.saveBitmap(grid, 2, tpsCharts.size(), file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static CategoryChart chart(String title, String yTitle) {
        CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title).yAxisTitle(yTitle).build();
        c.getStyler().setXAxisLabelRotation(35);
        c.getStyler().setYAxisDecimalPattern("#,###");
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        return c;
    }
}
