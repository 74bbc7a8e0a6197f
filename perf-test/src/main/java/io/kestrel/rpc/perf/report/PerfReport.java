package io.kestrel.rpc.perf.report;

import java.nio.file.Path;
import java.util.List;

/**
 * What a run produced.
 *
 * @param results one per configuration, in run order, with ratios to raw Netty
 * @param sizes serialized sizes printed at the start
 * @param markdown the Markdown report
 * @param csv the CSV of {@code results}
 * @param chart the PNG chart, or null if it could not be drawn (the report says why)
 */
public record PerfReport(List<RunResult> results, SerializedSizes sizes, Path markdown, Path csv, Path chart) {
}
