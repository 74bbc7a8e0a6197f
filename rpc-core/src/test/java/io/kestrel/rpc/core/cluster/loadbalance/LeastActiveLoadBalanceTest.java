package io.kestrel.rpc.core.cluster.loadbalance;

import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.greet;
import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.provider;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.TestCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LeastActiveLoadBalanceTest {
    private final LeastActiveLoadBalance lb = new LeastActiveLoadBalance();

    private static TestCandidate candidate(int port, int weight, int active) {
        return new TestCandidate(provider(port, weight), active);
    }

    @Test
    void prefersTheIdleProvider() {
        List<TestCandidate> candidates = List.of(candidate(20001, 100, 5), candidate(20002, 100, 0),
                candidate(20003, 500, 3));
        for (int i = 0; i < 1_000; i++) {
            assertEquals(20002, lb.select(candidates, greet("x")).provider().port());
        }
    }

    @Test
    void tiesAreBrokenByWeight() {
        List<TestCandidate> candidates = List.of(candidate(20001, 100, 2), candidate(20002, 300, 2),
                candidate(20003, 100, 7));
        List<TestCandidate> chosen = new ArrayList<>();
        for (int i = 0; i < 40_000; i++) {
            chosen.add(lb.select(candidates, greet("x")));
        }
        Map<Integer, Integer> counts = LoadBalanceFixtures.count(chosen);
        assertEquals(2, counts.size(), "the busier provider is never picked: " + counts);
        RandomLoadBalanceTest.assertWithin(counts.get(20001), 10_000, 0.05);
        RandomLoadBalanceTest.assertWithin(counts.get(20002), 30_000, 0.05);
    }

    @Test
    void weightZeroIsIgnoredEvenWhenIdle() {
        List<TestCandidate> candidates = List.of(candidate(20001, 0, 0), candidate(20002, 100, 9));
        assertEquals(20002, lb.select(candidates, greet("x")).provider().port());
        List<TestCandidate> allZero = List.of(candidate(20001, 0, 4), candidate(20002, 0, 1));
        assertEquals(20002, lb.select(allZero, greet("x")).provider().port());
    }

    @Test
    void singleCandidateIsReturnedAndEmptyListIsRejected() {
        TestCandidate busy = candidate(20001, 100, 1_000);
        assertSame(busy, lb.select(List.of(busy), greet("x")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> lb.select(List.<TestCandidate>of(), greet("x")));
        assertTrue(e.getMessage().contains("'leastactive' was given no candidates"), e.getMessage());
    }
}
