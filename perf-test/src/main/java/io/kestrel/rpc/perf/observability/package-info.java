/**
 * The cost of the metrics and tracing interceptors alone, without network or serialization: start with
 * {@link io.kestrel.rpc.perf.observability.InterceptorCostMain} ({@code perf-test/run.sh obscost}).
 */
package io.kestrel.rpc.perf.observability;
