/**
 * What a benchmark run writes: the console tables, {@code perf-report.md}, {@code perf-results.csv}
 * and {@code perf-chart.png}, from the {@link io.kestrel.rpc.perf.report.RunResult}s and the
 * measurements made before the run (serialized sizes, allocation per step of a bid call).
 */
package io.kestrel.rpc.perf.report;
