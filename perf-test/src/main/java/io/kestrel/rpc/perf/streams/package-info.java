/**
 * {@code perf-test/run.sh streams}: streaming throughput of the framework (server streaming of small messages,
 * bidirectional ping-pong, bytes on the wire per message, unary latency beside a running stream) against a minimal
 * raw-Netty streaming loop with the same serializer and against grpc-java ({@code perf-test-grpc}).
 */
package io.kestrel.rpc.perf.streams;
