/**
 * What a benchmark run writes: the console tables, {@code perf-report.md}, {@code perf-results.csv}
 * and {@code perf-chart.png}, from the {@link io.kestrel.rpc.perf.report.RunResult}s and the
 * measurements made before the run (serialized sizes, allocation per step of a bid call); the
 * ratios to each system's own minimal RPC ({@link io.kestrel.rpc.perf.report.Baselines}), the pipelined
 * tables, and the side-by-side report of a {@code --jdks} run.
 */
package io.kestrel.rpc.perf.report;
