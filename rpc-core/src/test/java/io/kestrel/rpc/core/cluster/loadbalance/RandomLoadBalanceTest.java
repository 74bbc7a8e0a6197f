package io.kestrel.rpc.core.cluster.loadbalance;

import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.greet;
import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.TestCandidate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RandomLoadBalanceTest {
    private final RandomLoadBalance lb = new RandomLoadBalance();

    @Test
    void picksInProportionToWeight() {
        List<TestCandidate> candidates = weighted(100, 200, 300);
        int picks = 120_000; // the smallest share is then > 4 standard deviations inside the ±3% band
        List<TestCandidate> chosen = new ArrayList<>(picks);
        for (int i = 0; i < picks; i++) {
            chosen.add(lb.select(candidates, greet("x")));
        }
        Map<Integer, Integer> counts = LoadBalanceFixtures.count(chosen);
        assertWithin(counts.get(20001), picks / 6.0, 0.03);
        assertWithin(counts.get(20002), picks * 2 / 6.0, 0.03);
        assertWithin(counts.get(20003), picks * 3 / 6.0, 0.03);
    }

    @Test
    void weightZeroIsNeverPickedUnlessAllAreZero() {
        List<TestCandidate> candidates = weighted(0, 100, 0);
        for (int i = 0; i < 10_000; i++) {
            assertEquals(20002, lb.select(candidates, greet("x")).provider().port());
        }
        List<TestCandidate> allZero = weighted(0, 0, 0);
        List<TestCandidate> chosen = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            chosen.add(lb.select(allZero, greet("x")));
        }
        assertEquals(3, LoadBalanceFixtures.count(chosen).size(), "all-zero weights fall back to uniform");
    }

    @Test
    void singleCandidateIsReturnedAndEmptyListIsRejected() {
        List<TestCandidate> one = weighted(0);
        assertSame(one.get(0), lb.select(one, greet("x")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lb.select(List.of(), greet("x")));
        assertTrue(e.getMessage().contains("'random' was given no candidates for com.example.Greeter:1.0#greet"),
                e.getMessage());
    }

    static void assertWithin(int actual, double expected, double relative) {
        assertTrue(Math.abs(actual - expected) <= expected * relative,
                "expected " + expected + " ± " + (relative * 100) + "%, got " + actual);
    }
}
