package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Providers and consumers finding each other through a real ZooKeeper, and failing over. */
class ClusterTest {
    static final int THREADS = 4;
    private TestingServer zk;
    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (RpcRuntime r : runtimes) {
            r.close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5)).build();
    }

    private NamedWho provider(String name) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(r);
        NamedWho impl = new NamedWho(name);
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        return impl;
    }

    private RpcRuntime providerRuntime(String name) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(r);
        r.export(ServiceConfig.builder(WhoService.class, new NamedWho(name)).build());
        return r;
    }

    private WhoService consumer(ReferenceConfig.Builder<WhoService> ref) {
        RpcRuntime r = RpcRuntime.builder().registry(registry()).build();
        runtimes.add(r);
        return r.refer(ref.build());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(10), condition);
    }

    private static Set<String> whoAnswers(WhoService who, int calls) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            seen.add(who.who());
        }
        return seen;
    }

    @Test
    void registerAndUnregisterAreVisibleToConsumers() throws Exception {
        provider("a");
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin"));
        assertEquals(Set.of("a"), whoAnswers(who, 10));

        RpcRuntime b = providerRuntime("b");
        await("consumer sees provider b", () -> whoAnswers(who, 10).equals(Set.of("a", "b")));

        b.close();
        runtimes.remove(b);
        await("consumer stops routing to b", () -> whoAnswers(who, 10).equals(Set.of("a")));
    }

    /**
     * Each of {@value #THREADS} threads calls {@code record(id)} with its own ids, one call at a time,
     * while provider b crashes. A call in flight on b when its connection drops may or may not have
     * run, so it is not retried and fails; every other call finds b not connected (or gone from the
     * registry), which proves it did not run there, and is sent to a. Hence at most one failure per
     * thread (the bound is the number of calls that can be in flight at the crash), none once the
     * crash was noticed, and every call that succeeded ran exactly once on the two providers.
     */
    @Test
    void abruptlyStoppedProviderDisappearsAndFailoverKeepsSucceeding() throws Exception {
        NamedWho a = provider("a");
        NamedWho bImpl = new NamedWho("b");
        RpcRuntime b = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(b);
        b.export(ServiceConfig.builder(WhoService.class, bImpl).build());
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin").retries(2));
        await("both providers known", () -> whoAnswers(who, 10).equals(Set.of("a", "b")));

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        Set<Long> succeeded = ConcurrentHashMap.newKeySet();
        Map<Long, RuntimeException> failed = new ConcurrentHashMap<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long base = t * 1_000_000_000L;
            Thread th = new Thread(() -> {
                for (long id = base; running.get(); id++) {
                    try {
                        who.record(id);
                        succeeded.add(id);
                        ok.incrementAndGet();
                    } catch (RuntimeException e) {
                        failed.put(id, e);
                    }
                }
            }, "crash-load-" + t);
            th.start();
            threads.add(th);
        }
        await("load running on both", () -> a.recordedRuns() > 100 && bImpl.recordedRuns() > 100);
        // crash b: its sockets drop at once (no drain), its ZooKeeper session ends
        b.crash();
        int okAtCrash = ok.get();
        await("calls keep succeeding after the crash", () -> ok.get() > okAtCrash + 500);
        int failedAfterSettling = failed.size();
        int okBefore = ok.get();
        await("more successes", () -> ok.get() > okBefore + 500);
        running.set(false);
        for (Thread th : threads) {
            th.join(10_000);
            assertFalse(th.isAlive(), th.getName() + " did not stop");
        }
        System.out.printf("crash: %d calls succeeded, %d failed: %s%n", succeeded.size(), failed.size(), failed.values());
        assertEquals(failedAfterSettling, failed.size(), "no failures once the crash was noticed: " + failed);
        assertTrue(failed.size() <= THREADS, "at most the calls in flight at the crash (one per thread) may fail: "
                + failed);
        for (RuntimeException e : failed.values()) {
            assertInstanceOf(TransportException.class, e, "only a connection lost in flight may fail a call");
        }
        for (long id : succeeded) {
            assertEquals(1, runs(a, id) + runs(bImpl, id), "call " + id + " must have run exactly once");
        }
        for (long id : failed.keySet()) {
            assertEquals(0, runs(a, id), "failed call " + id + " was retried on a");
            assertTrue(runs(bImpl, id) <= 1, "failed call " + id + " ran on b " + runs(bImpl, id) + " times");
        }
        assertEquals(Set.of("a"), whoAnswers(who, 10));
        runtimes.remove(b);
    }

    private static int runs(NamedWho p, long id) {
        AtomicInteger n = p.recorded.get(id);
        return n == null ? 0 : n.get();
    }

    @Test
    void callsContinueOnCachedProvidersWhileZooKeeperIsDownAndNewProvidersAreFoundAfter() throws Exception {
        provider("a");
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin"));
        assertEquals(Set.of("a"), whoAnswers(who, 5));

        zk.stop();
        for (int i = 0; i < 50; i++) {
            assertEquals("a", who.who(), "cached provider must keep serving while ZooKeeper is down");
        }
        zk.restart();
        provider("c");
        await("new provider c discovered after ZooKeeper came back", () -> whoAnswers(who, 10).contains("c"));
    }

    @Test
    void noProviderMessageNamesServiceVersionGroupRegistryAndProviders() {
        provider("a");
        NoProviderException e = assertThrows(NoProviderException.class,
                () -> consumer(ReferenceConfig.builder(WhoService.class).version("2.0").group("blue")));
        String m = e.getMessage();
        assertTrue(m.contains(WhoService.class.getName()), m);
        assertTrue(m.contains("2.0") && m.contains("blue"), m);
        assertTrue(m.contains(zk.getConnectString()), m);
        assertTrue(m.contains("providers seen: none"), m);
    }

    @Test
    void checkFalseStartsWithoutProvidersAndFindsOneLater() throws Exception {
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).check(false));
        NoProviderException e = assertThrows(NoProviderException.class, who::who);
        assertTrue(e.getMessage().contains("No provider available for " + WhoService.class.getName()), e.getMessage());
        provider("late");
        await("late provider found", () -> {
            try {
                return who.who().equals("late");
            } catch (NoProviderException ignored) {
                return false;
            }
        });
    }
}
