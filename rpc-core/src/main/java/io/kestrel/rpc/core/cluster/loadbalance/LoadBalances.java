package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.spi.ExtensionPoint;
import java.util.Set;

/**
 * Finds a {@link LoadBalance} by {@link LoadBalance#name()} among those listed under
 * {@code META-INF/services/io.kestrel.rpc.api.cluster.LoadBalance} (built in: random, roundrobin, leastactive,
 * consistenthash), through {@link ExtensionPoint} and its class-loader policy. Each call returns a new instance,
 * so per-method state (round-robin rotation, hash rings) is not shared between callers: look one up per
 * reference, once, at startup.
 */
public final class LoadBalances {
    private static final ExtensionPoint<LoadBalance> EXTENSIONS = ExtensionPoint.of(LoadBalance.class,
            "load balancer", LoadBalance::name, "Check the reference's loadbalance setting, or put the jar listing"
                    + " yours in META-INF/services/" + LoadBalance.class.getName() + " on the classpath");

    private LoadBalances() {
    }

    /**
     * @param name case-insensitive, e.g. "roundrobin"
     * @throws IllegalArgumentException naming the known load balancers if none is called {@code name}
     */
    public static LoadBalance byName(String name) {
        return EXTENSIONS.installed().create(name);
    }

    /** Names of every load balancer on the classpath, sorted. */
    public static Set<String> names() {
        return EXTENSIONS.installed().names();
    }
}
