/**
 * Micrometer metrics for Kestrel RPC: call duration timers as interceptors
 * ({@link io.kestrel.rpc.observability.metrics.KestrelMetrics}) and a runtime's gauges
 * ({@link io.kestrel.rpc.observability.metrics.RuntimeMetrics}). Needs {@code micrometer-core} on the class path.
 */
package io.kestrel.rpc.observability.metrics;
