package io.kestrel.rpc.core.cluster.loadbalance;

import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.greet;
import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.TestCandidate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ConsistentHashLoadBalanceTest {
    private static final int KEYS = 10_000;
    private final ConsistentHashLoadBalance lb = new ConsistentHashLoadBalance();

    private Map<String, Integer> placeKeys(ConsistentHashLoadBalance balancer, List<TestCandidate> candidates) {
        Map<String, Integer> placement = new HashMap<>();
        for (int k = 0; k < KEYS; k++) {
            String key = "user-" + k;
            placement.put(key, balancer.select(candidates, greet(key)).provider().port());
        }
        return placement;
    }

    @Test
    void sameKeyAlwaysGoesToSameProviderEvenAcrossInstancesAndListOrder() {
        List<TestCandidate> candidates = weighted(100, 100, 100, 100);
        Map<String, Integer> first = placeKeys(lb, candidates);
        assertEquals(first, placeKeys(lb, candidates), "sticky");
        assertEquals(first, placeKeys(new ConsistentHashLoadBalance(), candidates), "hash is stable, not per JVM");
        List<TestCandidate> shuffled = new ArrayList<>(candidates);
        Collections.shuffle(shuffled, new Random(42));
        assertEquals(first, placeKeys(lb, shuffled), "independent of list order");
    }

    @Test
    void keysSpreadOverAllProviders() {
        Map<Integer, Integer> perProvider = new HashMap<>();
        placeKeys(lb, weighted(100, 100, 100, 100)).values().forEach(p -> perProvider.merge(p, 1, Integer::sum));
        assertEquals(4, perProvider.size());
        perProvider.values().forEach(n -> assertTrue(n > KEYS * 0.15 && n < KEYS * 0.35, perProvider.toString()));
    }

    @Test
    void onlyTheKeysOfARemovedProviderMove() {
        List<TestCandidate> four = weighted(100, 100, 100, 100);
        Map<String, Integer> before = placeKeys(lb, four);
        List<TestCandidate> three = List.of(four.get(0), four.get(1), four.get(3)); // 20003 leaves
        Map<String, Integer> after = placeKeys(lb, three);
        int moved = 0;
        for (String key : before.keySet()) {
            if (before.get(key) == 20003) {
                assertNotEquals(20003, after.get(key));
                moved++;
            } else {
                assertEquals(before.get(key), after.get(key), "key " + key + " moved though its provider stayed");
            }
        }
        assertTrue(moved > KEYS * 0.15, "moved " + moved);
        assertEquals(before, placeKeys(lb, four), "the provider coming back takes its keys back");
    }

    @Test
    void keyIsTheFirstArgumentValueIncludingArrays() {
        List<TestCandidate> candidates = weighted(100, 100, 100);
        int port = lb.select(candidates, greet("alice")).provider().port();
        for (int i = 0; i < 100; i++) {
            assertEquals(port, lb.select(candidates, greet("alice", "ignored-" + i)).provider().port());
        }
        assertEquals("[1, 2, 3]", ConsistentHashLoadBalance.keyOf(greet((Object) new int[] {1, 2, 3})));
        assertEquals("null", ConsistentHashLoadBalance.keyOf(greet((Object) null)));
        assertEquals("", ConsistentHashLoadBalance.keyOf(greet()));
    }

    @Test
    void weightZeroProvidersGetNoKeysUnlessAllAreZero() {
        Map<String, Integer> placement = placeKeys(lb, weighted(100, 0, 100));
        assertTrue(placement.values().stream().noneMatch(p -> p == 20002));
        Map<String, Integer> allZero = placeKeys(new ConsistentHashLoadBalance(), weighted(0, 0, 0));
        assertEquals(3, allZero.values().stream().distinct().count());
    }

    @Test
    void singleCandidateIsReturnedAndEmptyListIsRejected() {
        List<TestCandidate> one = weighted(100);
        assertSame(one.get(0), lb.select(one, greet("x")));
        assertThrows(IllegalArgumentException.class, () -> lb.select(List.of(), greet("x")));
        assertThrows(IllegalArgumentException.class, () -> new ConsistentHashLoadBalance(0));
    }
}
