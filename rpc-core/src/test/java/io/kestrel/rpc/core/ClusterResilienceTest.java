package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ResilienceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 35 over real sockets and a real ZooKeeper: the registry is advice and the connection is truth,
 * resubscription converges after ZooKeeper comes back empty, outlier ejection takes a silent provider out
 * of balancing and readmits it, and the retry budget bounds retries.
 */
@Timeout(120)
class ClusterResilienceTest {
    private static final ServiceKey WHO = new ServiceKey(WhoService.class.getName(), "", "");
    private int zkPort;
    private TestingServer zk;
    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            zkPort = s.getLocalPort();
        }
        zk = emptyZooKeeper();
    }

    /** A ZooKeeper on the test's port with a fresh data directory: empty. */
    private TestingServer emptyZooKeeper() throws Exception {
        return new TestingServer(new InstanceSpec(null, zkPort, -1, -1, true, -1, 250, -1,
                Map.of("clientPortAddress", "127.0.0.1", "admin.enableServer", "false"), "127.0.0.1"), true);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (RpcRuntime r : runtimes) {
            r.close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://127.0.0.1:" + zkPort)
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5)).build();
    }

    private RpcRuntime provider(NamedWho impl) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        runtimes.add(r);
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        return r;
    }

    private RpcRuntime consumerRuntime() {
        RpcRuntime r = RpcRuntime.builder().registry(registry()).build();
        runtimes.add(r);
        return r;
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(20), condition);
    }

    private static ReferenceView.Provider view(RpcRuntime consumer, String address) {
        return consumer.inspect().references().get(0).providers().stream().filter(p -> p.address().equals(address))
                .findFirst().orElseThrow(() -> new AssertionError(address + " is not among "
                        + consumer.inspect().references().get(0).providers()));
    }

    /** Who answered {@code n} calls; a call that fails counts as nobody (for waiting until some answer). */
    private static Set<String> answers(java.util.function.Supplier<String> call, int n) {
        Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            try {
                names.add(call.get());
            } catch (RpcException e) {
                names.add("failed: " + e.getClass().getSimpleName());
            }
        }
        return names;
    }

    private static String address(RpcRuntime provider) {
        return "127.0.0.1:" + provider.boundPort();
    }

    @Test
    void providersTheRegistryNoLongerListsKeepServingWhileConnectedAndAreLetGoWhenTheyShutDown() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        RpcRuntime pa = provider(a);
        RpcRuntime pb = provider(b);
        RpcRuntime consumer = consumerRuntime();
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin").build());
        await("both providers take calls", () -> answers(who::who, 4).equals(Set.of("a", "b")));

        // both records leave ZooKeeper while both providers keep serving on healthy connections
        pa.exporter(WHO).orElseThrow().offline();
        pb.exporter(WHO).orElseThrow().offline();
        await("the consumer's registry lists none", () -> consumer.inspect().references().get(0).providers().stream()
                .allMatch(ReferenceView.Provider::unlisted));
        Map<String, Integer> served = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            served.merge(who.who(), 1, Integer::sum); // any failure fails the test
        }
        assertEquals(Set.of("a", "b"), served.keySet(), "both kept providers take calls: " + served);

        // a graceful shutdown (going away, then close) confirms the departure: b is let go and not reconnected
        pb.close();
        runtimes.remove(pb);
        await("b is let go", () -> consumer.inspect().references().get(0).providers().size() == 1);
        for (int i = 0; i < 50; i++) {
            assertEquals("a", who.who());
        }
        assertTrue(consumer.inspect().connections().stream().noneMatch(c -> c.address().equals(address(pb)) && !c.state()
                .equals("CLOSED")), "no connection to b is kept or reopened: " + consumer.inspect().connections());

        pa.close();
        runtimes.remove(pa);
        await("a is let go", () -> consumer.inspect().references().get(0).providers().isEmpty());
        NoProviderException e = assertThrows(NoProviderException.class, who::who);
        assertTrue(e.getMessage().contains("the registry lists none and no connected provider remains"), e.getMessage());
    }

    @Test
    void withEmptyProtectionOffTheConsumerFollowsTheRegistryAtOnce() throws Exception {
        NamedWho a = new NamedWho("a");
        RpcRuntime pa = provider(a);
        RpcRuntime consumer = RpcRuntime.builder().registry(RegistryConfig.builder()
                .address("zookeeper://127.0.0.1:" + zkPort).sessionTimeout(Duration.ofSeconds(4))
                .emptyProtection(false).build()).build();
        runtimes.add(consumer);
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).build());
        assertEquals("a", who.who());
        pa.exporter(WHO).orElseThrow().offline();
        await("the provider is dropped", () -> consumer.inspect().references().get(0).providers().isEmpty());
        assertThrows(NoProviderException.class, who::who);
    }

    @Test
    void afterZooKeeperComesBackEmptyTheConsumerKeepsServingAndConvergesOnTheReRegisteredProviders()
            throws Exception {
        NamedWho a = new NamedWho("a");
        RpcRuntime pa = provider(a);
        RpcRuntime consumer = consumerRuntime();
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).build());
        assertEquals("a", who.who());

        zk.close(); // its data is gone with it
        zk = emptyZooKeeper();
        for (int i = 0; i < 50; i++) {
            assertEquals("a", who.who(), "the connected provider keeps serving while ZooKeeper is rebuilt");
        }
        // sessions expire on the empty server; the provider registers again and the consumer reads it again
        await("the consumer lists a from the new ZooKeeper", () -> !view(consumer, address(pa)).unlisted()
                && consumer.inspect().references().get(0).providers().size() == 1);
        NamedWho c = new NamedWho("c");
        provider(c);
        await("a provider registered later is found too", () -> consumer.inspect().references().get(0).providers().size() == 2);
        await("it takes calls", () -> answers(who::who, 5).contains("c"));
        assertTrue(consumer.inspect().references().get(0).providers().stream().noneMatch(ReferenceView.Provider::unlisted));
    }

    @Test
    void aProviderThatStopsAnsweringIsEjectedAfterAFewTimeoutsAndReadmittedWhenItAnswersAgain() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        RpcRuntime pa = provider(a);
        provider(b);
        RpcRuntime consumer = consumerRuntime();
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).timeout(Duration.ofMillis(200))
                .retries(0).resilience(ResilienceConfig.builder().outlierFailures(3)
                        .outlierEjection(Duration.ofSeconds(3)).build()).build());
        await("both providers take calls", () -> answers(who::who, 4).equals(Set.of("a", "b")));

        a.hold(); // a accepts calls and never answers them
        int timeouts = 0;
        for (int i = 0; i < 100 && !view(consumer, address(pa)).ejected(); i++) {
            try {
                assertEquals("b", who.held());
            } catch (RpcTimeoutException e) {
                timeouts++;
            }
        }
        assertTrue(view(consumer, address(pa)).ejected(), "a is ejected");
        assertEquals(3, timeouts, "a is ejected after exactly outlier-failures timeouts in a row");
        int onA = a.heldCalls.get();
        long started = System.nanoTime();
        for (int i = 0; i < 100; i++) {
            assertEquals("b", who.held(), "every call after the ejection goes to the healthy provider");
        }
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(3).toNanos(), "the check ran inside the ejection");
        assertEquals(onA, a.heldCalls.get(), "no call reached a while it was ejected");
        assertEquals(1, view(consumer, address(pa)).ejections());

        a.release(); // a answers again: after the ejection time one call probes it and it is readmitted
        await("a takes calls again", () -> answers(who::held, 4).contains("a"));
        assertFalse(view(consumer, address(pa)).ejected());
    }

    @Test
    void serviceExceptionsNeverEjectAProvider() {
        // ten service exceptions in a row on each provider, with outlier-failures 2
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        provider(a);
        provider(b);
        RpcRuntime consumer = consumerRuntime();
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class)
                .resilience(ResilienceConfig.builder().outlierFailures(2).build()).build());
        for (int i = 0; i < 40; i++) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> who.fail("boom"));
            assertTrue(e.getMessage().contains("boom"), e.getMessage());
        }
        assertTrue(a.failCalls.get() > 5 && b.failCalls.get() > 5, "both kept taking calls");
        assertTrue(consumer.inspect().references().get(0).providers().stream().noneMatch(ReferenceView.Provider::ejected));
    }

    @Test
    void theRetryBudgetBoundsRetriesToAShareOfCalls() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        provider(a);
        provider(b);
        RpcRuntime consumer = consumerRuntime();
        // idempotent: timeouts are retried; without a budget every call would be tried twice
        WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).idempotent(true).retries(1)
                .timeout(Duration.ofMillis(150)).resilience(ResilienceConfig.builder().outlierFailures(0)
                        .retryBudgetPercent(10).retryBudgetMinPerSecond(0).build()).build());
        await("both providers take calls", () -> answers(who::who, 3).equals(Set.of("a", "b")));
        a.hold();
        b.hold();
        int calls = 30;
        for (int i = 0; i < calls; i++) {
            assertInstanceOf(RpcTimeoutException.class, assertThrows(RpcException.class, who::held));
        }
        int attempts = a.heldCalls.get() + b.heldCalls.get();
        a.release();
        b.release();
        int retries = attempts - calls;
        System.out.printf("retry budget: %d calls, %d attempts (%d retries)%n", calls, attempts, retries);
        assertTrue(retries >= 1, "the budget allows some retries: " + retries);
        // 10% of the calls in the window (the who() calls above count too, a few dozen at most)
        assertTrue(retries <= (calls + 30) / 10, "retries bounded to 10% of calls, were " + retries);
    }
}
