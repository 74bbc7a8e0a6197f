/**
 * The systems under test behind one small abstraction ({@link io.kestrel.rpc.perf.compare.system.BenchSystem}):
 * the framework per serialization, REST/JSON on embedded Tomcat and on Netty HTTP, and a raw Netty
 * length-prefixed echo. Each has a server half (run in the server JVM) and a client half that counts
 * the bytes it moves on the wire.
 */
package io.kestrel.rpc.perf.compare.system;
