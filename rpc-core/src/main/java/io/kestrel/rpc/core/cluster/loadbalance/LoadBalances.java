package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.LoadBalance;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds a {@link LoadBalance} by {@link LoadBalance#name()} among those listed under
 * {@code META-INF/services/io.kestrel.rpc.api.cluster.LoadBalance} (built in: random, roundrobin, leastactive,
 * consistenthash). Each call returns a new instance, so per-method state (round-robin rotation, hash rings) is
 * not shared between callers: look one up per reference, once, at startup.
 */
public final class LoadBalances {
    private LoadBalances() {
    }

    /**
     * @param name case-insensitive, e.g. "roundrobin"
     * @throws IllegalArgumentException naming the known load balancers if none is called {@code name}
     */
    public static LoadBalance byName(String name) {
        String wanted = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        Set<String> known = new TreeSet<>();
        for (LoadBalance lb : ServiceLoader.load(LoadBalance.class, classLoader())) {
            if (lb.name().equals(wanted)) {
                return lb;
            }
            known.add(lb.name());
        }
        throw new IllegalArgumentException("Unknown load balancer '" + name + "'; known: " + known
                + ". Check the reference's loadbalance setting, or put the jar listing yours in META-INF/services/"
                + LoadBalance.class.getName() + " on the classpath");
    }

    /** Names of every load balancer on the classpath, sorted. */
    public static Set<String> names() {
        Set<String> known = new TreeSet<>();
        ServiceLoader.load(LoadBalance.class, classLoader()).forEach(lb -> known.add(lb.name()));
        return known;
    }

    private static ClassLoader classLoader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : LoadBalances.class.getClassLoader();
    }
}
