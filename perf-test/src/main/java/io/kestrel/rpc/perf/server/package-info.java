/**
 * The server JVM that the benchmark and the soak start: its entry point
 * ({@link io.kestrel.rpc.perf.server.PerfServerMain}), the runner's handle on it
 * ({@link io.kestrel.rpc.perf.server.ServerProcess}, with the arguments of
 * {@link io.kestrel.rpc.perf.server.ServerLaunch}), and the class-path snapshot it runs from.
 */
package io.kestrel.rpc.perf.server;
