/**
 * Tracing for Kestrel RPC with Micrometer Observation, as interceptors
 * ({@link io.kestrel.rpc.observability.tracing.KestrelTracing}). Needs {@code micrometer-observation}
 * and, for spans, a micrometer-tracing bridge on the class path.
 */
package io.kestrel.rpc.observability.tracing;
