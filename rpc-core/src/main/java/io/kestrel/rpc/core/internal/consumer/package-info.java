/**
 * The consumer side of a runtime: references and their proxies, the cluster invoker (failover, retry budget,
 * outlier ejection), directories of providers and the agreement with each. Knows nothing of the provider side.
 * Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.core.internal.consumer;
