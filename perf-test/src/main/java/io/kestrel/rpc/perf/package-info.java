/**
 * perf-test, one package per program: {@code compare} (the end-to-end benchmark, {@code run.sh}),
 * {@code compare.system} (the systems under test), {@code report} (what a benchmark run writes),
 * {@code soak} ({@code run.sh soak}), {@code jmh} ({@code run.sh jmh}), {@code server} (the server
 * JVM that {@code compare} and {@code soak} start) and {@code support} (the benchmark service, its
 * workloads and encodings, JVM probes and the command-line parser that every program shares).
 */
package io.kestrel.rpc.perf;
