/**
 * The end-to-end benchmark ({@code perf-test/run.sh}): the framework with each serialization against
 * its minimal raw-Netty RPC, REST/JSON baselines and a raw Netty echo, server and client in separate
 * JVMs on loopback; synchronous threads and pipelined asynchronous calls, on one JDK or several.
 * {@link io.kestrel.rpc.perf.compare.PerfMain} parses the options, {@link io.kestrel.rpc.perf.compare.PerfRunner}
 * runs the matrix and hands the results to {@link io.kestrel.rpc.perf.report}.
 */
package io.kestrel.rpc.perf.compare;
