package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
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
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
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

    @Test
    void abruptlyStoppedProviderDisappearsAndFailoverKeepsSucceeding() throws Exception {
        provider("a");
        RpcRuntime b = providerRuntime("b");
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin").retries(2));
        await("both providers known", () -> whoAnswers(who, 10).equals(Set.of("a", "b")));

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Set<String> failures = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread th = new Thread(() -> {
                while (running.get()) {
                    try {
                        who.who();
                        ok.incrementAndGet();
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                        failures.add(e.getClass().getSimpleName() + ": " + e.getMessage());
                    }
                }
            });
            th.start();
            threads.add(th);
        }
        await("load running", () -> ok.get() > 200);
        // crash b: its sockets drop at once (no drain), its ZooKeeper session ends
        b.crash();
        int okAtCrash = ok.get();
        await("calls keep succeeding after the crash", () -> ok.get() > okAtCrash + 500);
        int failedAfterSettling = failed.get();
        int okBefore = ok.get();
        await("more successes", () -> ok.get() > okBefore + 500);
        running.set(false);
        for (Thread th : threads) {
            th.join(5000);
        }
        assertEquals(failedAfterSettling, failed.get(), "no failures once the crash was noticed: " + failures);
        assertTrue(failed.get() <= 4, "at most the calls in flight at the crash may fail, got " + failed.get() + ": "
                + failures);
        assertEquals(Set.of("a"), whoAnswers(who, 10));
        runtimes.remove(b);
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

    @Test
    void timeoutsAreNotRetriedSoACallNeverRunsTwiceSilently() throws Exception {
        NamedWho a = provider("a");
        NamedWho b = provider("b");
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).timeout(Duration.ofMillis(1000)).retries(2));
        await("both known", () -> whoAnswers(who, 10).size() == 2);
        int before = a.calls.get() + b.calls.get();
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class, () -> who.slowWho(2500));
        assertTrue(e.getMessage().contains("slowWho"), e.getMessage());
        Thread.sleep(2000); // a retry, if there were one, would have reached a provider by now
        assertEquals(before + 1, a.calls.get() + b.calls.get(), "a timed-out call must not be retried");
    }

    @Test
    void idempotentReferencesOptInToRetryingTimeouts() throws Exception {
        NamedWho a = provider("a");
        NamedWho b = provider("b");
        WhoService who = consumer(ReferenceConfig.builder(WhoService.class).timeout(Duration.ofMillis(1000)).retries(1)
                .idempotent(true));
        await("both known", () -> whoAnswers(who, 10).size() == 2);
        int before = a.calls.get() + b.calls.get();
        assertThrows(RpcTimeoutException.class, () -> who.slowWho(1500));
        await("the timed-out call was retried once on the other provider",
                () -> a.calls.get() + b.calls.get() == before + 2);
    }

    @Test
    void failsafeReturnsNullAndFailfastDoesNotRetry() throws Exception {
        RpcRuntime only = providerRuntime("x");
        WhoService failsafe = consumer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILSAFE).timeout(Duration.ofMillis(200)));
        WhoService failfast = consumer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST).timeout(Duration.ofMillis(200)));
        assertEquals("x", failsafe.who());
        assertNull(failsafe.slowWho(600), "failsafe swallows the timeout");
        assertThrows(RpcTimeoutException.class, () -> failfast.slowWho(600));
        assertTrue(only.boundPort() > 0);
    }
}
