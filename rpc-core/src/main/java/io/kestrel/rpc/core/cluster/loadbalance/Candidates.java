package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Checks and weighted picks shared by the load balancers. */
final class Candidates {
    private Candidates() {
    }

    /**
     * The {@link io.kestrel.rpc.api.cluster.LoadBalance} contract says the list is never empty; say clearly who
     * broke it rather than fail with an index error.
     */
    static void requireNotEmpty(List<?> candidates, Invocation invocation, String balancer) {
        if (candidates == null || candidates.isEmpty()) {
            throw new IllegalArgumentException("Load balancer '" + balancer + "' was given no candidates for "
                    + describe(invocation) + "; the caller must report 'no provider' itself instead of selecting");
        }
    }

    static String describe(Invocation invocation) {
        return invocation == null ? "an unknown call" : invocation.service() + "#" + invocation.methodName();
    }

    /**
     * Picks one of {@code candidates} with probability proportional to its weight. Weight 0 is never picked
     * unless every weight is 0, in which case the pick is uniform.
     */
    static <C extends Candidate> C weightedRandom(List<C> candidates) {
        int n = candidates.size();
        if (n == 1) {
            return candidates.get(0);
        }
        long total = 0;
        boolean same = true;
        int first = candidates.get(0).weight();
        for (int i = 0; i < n; i++) {
            int w = candidates.get(i).weight();
            total += w;
            same &= w == first;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        if (total == 0 || same) {
            return candidates.get(random.nextInt(n));
        }
        long r = random.nextLong(total);
        for (int i = 0; i < n; i++) {
            r -= candidates.get(i).weight();
            if (r < 0) {
                return candidates.get(i);
            }
        }
        return candidates.get(n - 1); // not reached: r < total
    }
}
