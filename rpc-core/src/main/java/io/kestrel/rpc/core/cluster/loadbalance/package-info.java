/**
 * The built-in {@link io.kestrel.rpc.api.cluster.LoadBalance} implementations ("random", "roundrobin",
 * "leastactive", "consistenthash") and {@link io.kestrel.rpc.core.cluster.loadbalance.LoadBalances#byName}, which
 * finds any load balancer on the classpath by name. Pure logic: no I/O, no registry or transport types.
 */
package io.kestrel.rpc.core.cluster.loadbalance;
