package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import java.util.ArrayList;
import java.util.List;

/**
 * "leastactive": picks the provider with the fewest calls in flight from this consumer
 * ({@link Candidate#activeCalls()}), so slow providers get less traffic. Ties are broken by weighted random
 * (see {@link RandomLoadBalance}). Providers of weight 0 are left out unless all weigh 0. Stateless and
 * thread-safe.
 */
public final class LeastActiveLoadBalance implements LoadBalance {
    /** The configuration name. */
    public static final String NAME = "leastactive";

    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public LeastActiveLoadBalance() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** @throws IllegalArgumentException if {@code candidates} is empty */
    @Override
    public <C extends Candidate> C select(List<C> candidates, Invocation invocation) {
        Candidates.requireNotEmpty(candidates, invocation, NAME);
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        boolean anyWeight = false;
        for (int i = 0; i < n && !anyWeight; i++) {
            anyWeight = candidates.get(i).provider().weight() > 0;
        }
        int least = Integer.MAX_VALUE;
        C only = null;
        List<C> ties = null;
        for (int i = 0; i < n; i++) {
            C c = candidates.get(i);
            if (anyWeight && c.provider().weight() == 0) {
                continue;
            }
            int active = c.activeCalls();
            if (active < least) {
                least = active;
                only = c;
                ties = null;
            } else if (active == least) {
                if (ties == null) {
                    ties = new ArrayList<>(n);
                    ties.add(only);
                }
                ties.add(c);
            }
        }
        return ties == null ? only : Candidates.weightedRandom(ties);
    }
}
