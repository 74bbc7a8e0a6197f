package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * "roundrobin": smooth weighted round-robin, per service and method. With weights 5:1:1 the order is
 * {@code a a b a c a a}, not {@code a a a a a b c}: each pick adds every provider's weight to its running score,
 * takes the highest score and subtracts the total weight from it. Over {@code sum(weights)} picks each provider
 * is picked exactly {@code weight} times. Weight 0 is never picked unless all weigh 0 (then plain round-robin).
 *
 * <p>Thread-safe: each method's state is updated under its own lock. When the provider list changes, the
 * scores of providers still present (same host:port) are kept, so the rotation continues smoothly. One
 * instance keeps state for every method it has seen; use one instance per reference (as {@link
 * java.util.ServiceLoader} gives).
 */
public final class RoundRobinLoadBalance implements LoadBalance {
    /** The configuration name. */
    public static final String NAME = "roundrobin";

    private final ConcurrentMap<MethodKey, Rotation> rotations = new ConcurrentHashMap<>();

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public RoundRobinLoadBalance() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws IllegalArgumentException if {@code candidates} is empty */
    @Override
    public <C extends Candidate> C select(List<C> candidates, Invocation invocation) {
        Candidates.requireNotEmpty(candidates, invocation, NAME);
        if (candidates.size() == 1) {
            return candidates.get(0);
        }
        Rotation rotation = rotations.computeIfAbsent(MethodKey.of(invocation), k -> new Rotation());
        int index;
        synchronized (rotation) {
            index = rotation.next(candidates);
        }
        return candidates.get(index);
    }

    /** One method's scores, aligned with the last candidate list seen. Guarded by its own monitor. */
    private static final class Rotation {
        private ProviderInfo[] providers = new ProviderInfo[0];
        private long[] scores = new long[0];

        int next(List<? extends Candidate> candidates) {
            align(candidates);
            int n = providers.length;
            boolean anyWeight = false;
            for (int i = 0; i < n && !anyWeight; i++) {
                anyWeight = candidates.get(i).weight() > 0;
            }
            long total = 0;
            int best = -1;
            for (int i = 0; i < n; i++) {
                int weight = anyWeight ? candidates.get(i).weight() : 1; // aligned: same index, warm-up applied
                if (weight == 0) {
                    continue;
                }
                scores[i] += weight;
                total += weight;
                if (best < 0 || scores[i] > scores[best]) {
                    best = i;
                }
            }
            scores[best] -= total;
            return best;
        }

        /** Cheap when the list is the same objects in the same order (the usual case); rebuilt otherwise. */
        private void align(List<? extends Candidate> candidates) {
            int n = candidates.size();
            if (n == providers.length) {
                boolean same = true;
                for (int i = 0; i < n && same; i++) {
                    same = candidates.get(i).provider() == providers[i];
                }
                if (same) {
                    return;
                }
            }
            Map<String, Long> previous = new HashMap<>(providers.length * 2);
            for (int i = 0; i < providers.length; i++) {
                previous.put(providers[i].address(), scores[i]);
            }
            ProviderInfo[] nextProviders = new ProviderInfo[n];
            long[] nextScores = new long[n];
            for (int i = 0; i < n; i++) {
                nextProviders[i] = candidates.get(i).provider();
                nextScores[i] = previous.getOrDefault(nextProviders[i].address(), 0L);
            }
            providers = nextProviders;
            scores = nextScores;
        }
    }
}
