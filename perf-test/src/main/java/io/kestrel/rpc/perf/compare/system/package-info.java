/**
 * The systems under test behind one small abstraction ({@link io.kestrel.rpc.perf.compare.system.BenchSystem}):
 * the framework per serialization, a minimal raw-Netty RPC per serialization with the framework's own
 * serializer (the fair limit), REST/JSON on embedded Tomcat and on Netty HTTP, and a raw Netty
 * length-prefixed echo. Each has a server half (run in the server JVM) and a client half that counts
 * the bytes it moves on the wire; the framework and the minimal RPCs also make asynchronous calls.
 */
package io.kestrel.rpc.perf.compare.system;
