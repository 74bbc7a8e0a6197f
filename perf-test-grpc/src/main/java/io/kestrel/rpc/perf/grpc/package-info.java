/**
 * grpc-java's side of perf-test's streams benchmark ({@code perf-test/run.sh streams}): a server-streaming and a
 * bidirectional method described by hand ({@link io.kestrel.rpc.perf.grpc.ByteMethods}, no protoc), served and
 * called by grpc-java itself on a class path that holds no framework module. perf-test talks to it only through JDK
 * types (the server JVM's line protocol, the client through reflection on
 * {@link io.kestrel.rpc.perf.grpc.GrpcStreamClient}).
 */
package io.kestrel.rpc.perf.grpc;
