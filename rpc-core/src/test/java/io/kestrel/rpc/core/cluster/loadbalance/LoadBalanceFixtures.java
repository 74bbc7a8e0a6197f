package io.kestrel.rpc.core.cluster.loadbalance;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.cluster.Candidate;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Candidates and invocations for load-balancer tests. */
final class LoadBalanceFixtures {
    static final ServiceKey SERVICE = new ServiceKey("com.example.Greeter", "1.0", "");

    /** The service the invocations call. */
    interface Greeter {
        String greet(String name);

        String farewell(String name);
    }

    record TestCandidate(ProviderInfo provider, int activeCalls) implements Candidate {
        @Override
        public String toString() {
            return provider.address() + "(w" + provider.weight() + ",a" + activeCalls + ")";
        }
    }

    private LoadBalanceFixtures() {
    }

    static ProviderInfo provider(int port, int weight) {
        return new ProviderInfo("10.0.0.1", port, SERVICE, List.of((byte) 8), weight, List.of("greet", "farewell"));
    }

    /** One candidate per weight, on ports 20001, 20002, ..., idle. */
    static List<TestCandidate> weighted(int... weights) {
        List<TestCandidate> list = new ArrayList<>();
        for (int i = 0; i < weights.length; i++) {
            list.add(new TestCandidate(provider(20001 + i, weights[i]), 0));
        }
        return list;
    }

    static Invocation greet(Object... args) {
        return invocation("greet", args);
    }

    static Invocation invocation(String method, Object... args) {
        try {
            return new Invocation(SERVICE, Greeter.class.getMethod(method, String.class), args, Map.of());
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }

    /** How often each candidate was picked, by port. */
    static Map<Integer, Integer> count(List<TestCandidate> picks) {
        Map<Integer, Integer> counts = new HashMap<>();
        for (TestCandidate c : picks) {
            counts.merge(c.provider().port(), 1, Integer::sum);
        }
        return counts;
    }
}
