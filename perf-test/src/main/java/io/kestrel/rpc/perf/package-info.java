/**
 * The end-to-end benchmark: the framework with each serialization against REST/JSON baselines and a
 * raw Netty echo, server and client in separate JVMs on loopback. {@link io.kestrel.rpc.perf.PerfMain}
 * runs the matrix and writes the report; {@link io.kestrel.rpc.perf.PerfServerMain} is the server JVM.
 */
package io.kestrel.rpc.perf;
