package io.kestrel.rpc.core.cluster.loadbalance;

import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.greet;
import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.invocation;
import static io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.weighted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalanceFixtures.TestCandidate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class RoundRobinLoadBalanceTest {
    private final RoundRobinLoadBalance lb = new RoundRobinLoadBalance();

    private List<TestCandidate> pick(List<TestCandidate> candidates, Invocation invocation, int times) {
        List<TestCandidate> chosen = new ArrayList<>(times);
        for (int i = 0; i < times; i++) {
            chosen.add(lb.select(candidates, invocation));
        }
        return chosen;
    }

    @Test
    void equalWeightsRotateEvenly() {
        List<TestCandidate> candidates = weighted(100, 100, 100);
        List<TestCandidate> chosen = pick(candidates, greet("x"), 3_000);
        assertEquals(Map.of(20001, 1_000, 20002, 1_000, 20003, 1_000), LoadBalanceFixtures.count(chosen));
        assertEquals(candidates, chosen.subList(0, 3), "one each per round");
    }

    @Test
    void weightsAreRespectedExactlyPerCycle() {
        List<TestCandidate> chosen = pick(weighted(100, 200, 300), greet("x"), 60_000);
        assertEquals(Map.of(20001, 10_000, 20002, 20_000, 20003, 30_000), LoadBalanceFixtures.count(chosen));
    }

    @Test
    void heavyProviderIsInterleavedNotBursted() {
        List<TestCandidate> c = weighted(5, 1, 1);
        List<Integer> ports = pick(c, greet("x"), 7).stream().map(t -> t.provider().port()).toList();
        assertEquals(List.of(20001, 20001, 20002, 20001, 20003, 20001, 20001), ports);
    }

    @Test
    void weightZeroIsNeverPickedUnlessAllAreZero() {
        assertEquals(Map.of(20002, 1_000), LoadBalanceFixtures.count(pick(weighted(0, 100, 0), greet("x"), 1_000)));
        assertEquals(Map.of(20001, 100, 20002, 100, 20003, 100),
                LoadBalanceFixtures.count(pick(weighted(0, 0, 0), greet("x"), 300)));
    }

    @Test
    void eachMethodHasItsOwnRotation() {
        List<TestCandidate> candidates = weighted(100, 100);
        assertEquals(20001, lb.select(candidates, greet("x")).provider().port());
        assertEquals(20001, lb.select(candidates, invocation("farewell", "x")).provider().port());
        assertEquals(20002, lb.select(candidates, greet("x")).provider().port());
    }

    @Test
    void providerListChangesAreFollowed() {
        List<TestCandidate> three = weighted(100, 100, 100);
        pick(three, greet("x"), 10);
        List<TestCandidate> two = List.of(three.get(0), three.get(2));
        Map<Integer, Integer> counts = LoadBalanceFixtures.count(pick(two, greet("x"), 1_000));
        assertEquals(2, counts.size());
        assertEquals(1_000, counts.get(20001) + counts.get(20003));
        assertEquals(500, counts.get(20001), 1.0);
        List<TestCandidate> reversed = new ArrayList<>(three);
        Collections.reverse(reversed);
        assertEquals(Map.of(20001, 100, 20002, 100, 20003, 100),
                LoadBalanceFixtures.count(pick(reversed, greet("x"), 300)));
    }

    @Test
    @Timeout(30)
    void concurrentCallersStillShareTheRotationExactly() throws Exception {
        List<TestCandidate> candidates = weighted(100, 200, 300);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<TestCandidate>>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> pick(candidates, greet("x"), 7_500)));
            }
            List<TestCandidate> all = new ArrayList<>();
            for (Future<List<TestCandidate>> f : futures) {
                all.addAll(f.get(20, TimeUnit.SECONDS));
            }
            assertEquals(Map.of(20001, 10_000, 20002, 20_000, 20003, 30_000), LoadBalanceFixtures.count(all));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void singleCandidateIsReturnedAndEmptyListIsRejected() {
        List<TestCandidate> one = weighted(0);
        assertSame(one.get(0), lb.select(one, greet("x")));
        assertNotEquals(null, assertThrows(IllegalArgumentException.class, () -> lb.select(List.of(), greet("x")))
                .getMessage());
    }
}
