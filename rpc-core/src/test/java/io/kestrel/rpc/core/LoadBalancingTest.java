package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The load balancers over real providers found through a real ZooKeeper (weights travel in the
 * registry record), counted on the providers themselves.
 */
class LoadBalancingTest {
    private TestingServer zk;
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final List<NamedWho> providers = new ArrayList<>();
    private final Map<NamedWho, RpcRuntime> runtimeOf = new HashMap<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        providers.forEach(NamedWho::release);
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
    }

    private NamedWho provider(String name, int weight) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(r);
        NamedWho impl = new NamedWho(name);
        r.export(ServiceConfig.builder(WhoService.class, impl).weight(weight).build());
        providers.add(impl);
        runtimeOf.put(impl, r);
        return impl;
    }

    private WhoService consumer(String loadBalance) throws InterruptedException {
        RpcRuntime r = RpcRuntime.builder().registry(registry()).build();
        runtimes.add(r);
        WhoService who = r.refer(ReferenceConfig.builder(WhoService.class).loadBalance(loadBalance)
                .timeout(Duration.ofSeconds(5)).build());
        return who;
    }

    @Test
    void weightedRoundRobinGivesEachProviderExactlyItsWeightPerCycle() throws Exception {
        NamedWho a = provider("a", 3);
        NamedWho b = provider("b", 2);
        NamedWho c = provider("c", 1);
        WhoService who = consumer("roundrobin");
        Await.until("all three providers known", () -> answers(who, 12).size() == 3);
        int before = a.whoCalls.get() + b.whoCalls.get() + c.whoCalls.get();
        int[] start = {a.whoCalls.get(), b.whoCalls.get(), c.whoCalls.get()};
        // weights 3:2:1: each cycle of 6 calls picks each provider exactly its weight times, so 60 calls give
        // exactly 30, 20, 10, wherever the cycle stood
        for (int i = 0; i < 60; i++) {
            who.who();
        }
        assertEquals(before + 60, a.whoCalls.get() + b.whoCalls.get() + c.whoCalls.get());
        assertEquals(List.of(30, 20, 10), List.of(a.whoCalls.get() - start[0], b.whoCalls.get() - start[1],
                c.whoCalls.get() - start[2]));
    }

    @Test
    void leastActiveAvoidsTheProviderWithCallsInFlight() throws Exception {
        NamedWho a = provider("a", 100);
        NamedWho b = provider("b", 100);
        WhoService who = consumer("leastactive");
        Await.until("both providers known", () -> answers(who, 20).size() == 2);
        a.hold();
        // asynchronous calls: those on b return at once (while both are idle the pick is random); until one is in
        // flight on a (from then on a is never the least active, so it cannot get a second)
        List<CompletableFuture<String>> onA = new ArrayList<>();
        for (int i = 0; i < 40 && a.heldCalls.get() < 1; i++) {
            int aBefore = a.heldCalls.get();
            int startedBefore = aBefore + b.heldCalls.get();
            CompletableFuture<String> f = who.heldAsync();
            Await.until("the call started on a provider", () -> a.heldCalls.get() + b.heldCalls.get() > startedBefore);
            if (a.heldCalls.get() > aBefore) {
                onA.add(f);
            } else {
                assertEquals("b", f.get(10, TimeUnit.SECONDS)); // b's calls end before the next is made
            }
        }
        assertEquals(1, a.heldCalls.get(), "leastactive never chose a while both were idle");
        int aBefore = a.whoCalls.get();
        int bBefore = b.whoCalls.get();
        for (int i = 0; i < 50; i++) {
            assertEquals("b", who.who(), "call " + i + " went to the provider with a call in flight");
        }
        assertEquals(aBefore, a.whoCalls.get());
        assertEquals(bBefore + 50, b.whoCalls.get());
        a.release();
        for (CompletableFuture<String> f : onA) {
            assertEquals("a", f.get(10, TimeUnit.SECONDS));
        }
        // with nothing in flight, both are used again
        Await.until("a chosen again once idle", () -> answers(who, 20).contains("a"));
    }

    @Test
    void consistentHashKeepsEachKeyOnOneProviderAndMovesOnlyTheKeysOfAProviderThatLeaves() throws Exception {
        NamedWho a = provider("a", 100);
        NamedWho b = provider("b", 100);
        NamedWho c = provider("c", 100);
        WhoService who = consumer("consistenthash");
        Await.until("all three providers known", () -> {
            Set<String> seen = new HashSet<>();
            for (long key = 0; key < 60; key++) {
                seen.add(who.record(key));
            }
            return seen.size() == 3;
        });
        Map<Long, String> placement = new HashMap<>();
        for (long key = 0; key < 60; key++) {
            String first = who.record(key);
            for (int repeat = 0; repeat < 3; repeat++) {
                assertEquals(first, who.record(key), "key " + key + " moved between calls");
            }
            placement.put(key, first);
        }
        assertEquals(Set.of("a", "b", "c"), new HashSet<>(placement.values()), "keys spread over all providers");

        RpcRuntime cRuntime = runtimeOf.get(c);
        cRuntime.close(); // unregisters
        runtimes.remove(cRuntime);
        long cKey = placement.entrySet().stream().filter(e -> e.getValue().equals("c")).findFirst().orElseThrow().getKey();
        Await.until("c's keys served elsewhere", () -> !who.record(cKey).equals("c"));
        for (Map.Entry<Long, String> e : placement.entrySet()) {
            String now = who.record(e.getKey());
            if (e.getValue().equals("c")) {
                assertTrue(now.equals("a") || now.equals("b"), "key " + e.getKey() + " now on " + now);
            } else {
                assertEquals(e.getValue(), now, "key " + e.getKey() + " moved although its provider stayed");
            }
        }
    }

    private static Set<String> answers(WhoService who, int calls) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            seen.add(who.who());
        }
        return seen;
    }
}
