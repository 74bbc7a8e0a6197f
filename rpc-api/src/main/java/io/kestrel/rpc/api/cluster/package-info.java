/**
 * The load-balancing extension point. Implementations are found with {@link java.util.ServiceLoader}
 * and chosen per reference by {@link io.kestrel.rpc.api.cluster.LoadBalance#name()}.
 */
package io.kestrel.rpc.api.cluster;
