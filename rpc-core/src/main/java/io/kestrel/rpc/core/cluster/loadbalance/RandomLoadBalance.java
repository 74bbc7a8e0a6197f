package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import java.util.List;

/**
 * "random": picks a provider at random, in proportion to {@link io.kestrel.rpc.api.registry.ProviderInfo#weight()}.
 * A provider of weight 0 is never picked unless all weigh 0 (then the pick is uniform). Stateless and
 * thread-safe; uses {@link java.util.concurrent.ThreadLocalRandom}.
 */
public final class RandomLoadBalance implements LoadBalance {
    /** The configuration name. */
    public static final String NAME = "random";

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public RandomLoadBalance() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws IllegalArgumentException if {@code candidates} is empty */
    @Override
    public <C extends Candidate> C select(List<C> candidates, Invocation invocation) {
        Candidates.requireNotEmpty(candidates, invocation, NAME);
        return Candidates.weightedRandom(candidates);
    }
}
