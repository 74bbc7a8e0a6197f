package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The README's failover rules, one test each, over real providers in direct mode: a call is sent to
 * another provider only when it certainly did not run (busy, service not exported there); timeouts and
 * service exceptions are not retried. Every provider counts what ran on it ({@link NamedWho}), so each
 * test proves where each call ran and that it ran exactly once.
 *
 * <p>Why the counts are final when the caller sees its result: a retry is sent, and answered, before
 * the caller's future completes (the cluster chains attempts), so a retry that happened has already
 * run on its provider by then. Where "not retried" is proven, the other provider would have answered
 * at once, so a retry would have turned the failure into a success.
 */
class FailoverRulesTest {
    static final int CALLS = 10;
    private final List<RpcRuntime> runtimes = new ArrayList<>();
    private final List<NamedWho> providers = new ArrayList<>();

    @AfterEach
    void stopAll() {
        providers.forEach(NamedWho::release);
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private RpcRuntime runtime(RpcRuntime.Builder builder) {
        RpcRuntime r = builder.build();
        runtimes.add(r);
        return r;
    }

    /** A provider of WhoService; returns its address. */
    private String provider(NamedWho impl, ProtocolConfig protocol) {
        RpcRuntime r = runtime(RpcRuntime.builder().protocol(protocol));
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        providers.add(impl);
        return "127.0.0.1:" + r.boundPort();
    }

    private String provider(NamedWho impl) {
        return provider(impl, TestRuntimes.loopback().build());
    }

    private WhoService reference(String urls, ReferenceConfig.Builder<WhoService> ref) {
        return runtime(RpcRuntime.builder()).refer(ref.url(urls).build());
    }

    private static ReferenceConfig.Builder<WhoService> roundRobin(String cluster) {
        return ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin").cluster(ClusterMode.byName(cluster)).retries(2)
                .timeout(Duration.ofSeconds(5));
    }

    @Test
    void busyProviderIsRetriedOnAnotherAndEachCallRunsThereExactlyOnce() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        String aUrl = provider(a, TestRuntimes.loopback().threads(1).queueCapacity(0).build());
        String bUrl = provider(b);
        // a's only business thread is taken by a held call: a answers "server busy" without running anything
        a.hold();
        WhoService hog = reference(aUrl, ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST));
        CompletableFuture<String> hogged = CompletableFuture.supplyAsync(hog::held);
        a.awaitEntered(1, Duration.ofSeconds(10));

        // failfast shows that round robin does send first attempts to a, and that a answers busy
        WhoService failfast = reference(aUrl + "," + bUrl, roundRobin("failfast"));
        int busy = 0;
        for (long id = 0; id < CALLS; id++) {
            try {
                assertEquals("b", failfast.record(id));
            } catch (ServerBusyException e) {
                assertTrue(e.getMessage().contains("did not run"), e.getMessage());
                busy++;
            }
        }
        assertTrue(busy > 0, "round robin never chose the busy provider, so nothing was tested");

        // failover: every call succeeds, each ran once on b and never on a
        WhoService failover = reference(aUrl + "," + bUrl, roundRobin("failover"));
        for (long id = 100; id < 100 + CALLS; id++) {
            assertEquals("b", failover.record(id));
        }
        assertEquals(Map.of(), runsById(a), "calls ran on the busy provider");
        Map<Long, Integer> onB = runsById(b);
        for (long id = 100; id < 100 + CALLS; id++) {
            assertEquals(1, onB.get(id), "failover call " + id + " on b: " + onB);
        }
        assertEquals(CALLS - busy, onB.keySet().stream().filter(id -> id < 100).count(),
                "failfast calls that were not refused ran on b, once each");
        assertEquals(2 * CALLS - busy, b.recordedRuns());

        a.release();
        assertEquals("a", hogged.get(10, TimeUnit.SECONDS));
    }

    @Test
    void providerWithoutTheServiceIsRetriedOnAnotherAndEachCallRunsThereExactlyOnce() throws Exception {
        RpcRuntime echoOnly = runtime(RpcRuntime.builder().protocol(TestRuntimes.loopback().build()));
        echoOnly.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        String echoOnlyUrl = "127.0.0.1:" + echoOnly.boundPort();
        NamedWho b = new NamedWho("b");
        String bUrl = provider(b);

        WhoService failfast = reference(echoOnlyUrl + "," + bUrl, roundRobin("failfast"));
        int notFound = 0;
        for (long id = 0; id < CALLS; id++) {
            try {
                assertEquals("b", failfast.record(id));
            } catch (ServiceNotFoundException e) {
                assertTrue(e.getMessage().contains(WhoService.class.getName()), e.getMessage());
                notFound++;
            }
        }
        assertTrue(notFound > 0, "round robin never chose the provider without the service, so nothing was tested");

        WhoService failover = reference(echoOnlyUrl + "," + bUrl, roundRobin("failover"));
        for (long id = 100; id < 100 + CALLS; id++) {
            assertEquals("b", failover.record(id));
        }
        Map<Long, Integer> onB = runsById(b);
        for (long id = 100; id < 100 + CALLS; id++) {
            assertEquals(1, onB.get(id), "failover call " + id + " on b: " + onB);
        }
        assertEquals(2 * CALLS - notFound, b.recordedRuns());
    }

    @Test
    void serviceExceptionsAreNotRetried() {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        WhoService who = reference(provider(a) + "," + provider(b), roundRobin("failover"));
        for (int i = 1; i <= CALLS; i++) {
            int call = i;
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> who.fail("call " + call));
            assertTrue(e.getMessage().endsWith(": call " + call), e.getMessage());
            assertEquals(i, a.failCalls.get() + b.failCalls.get(), "call " + i + " ran more than once");
        }
        assertTrue(a.failCalls.get() > 0 && b.failCalls.get() > 0, "both providers were used: a " + a.failCalls
                + ", b " + b.failCalls);
    }

    @Test
    void timeoutsAreNotRetriedSoACallNeverRunsTwiceSilently() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        WhoService who = reference(provider(a) + "," + provider(b), roundRobin("failover")
                .timeout(Duration.ofMillis(300)));
        a.hold(); // a keeps the call past the timeout; b answers at once, so a retry there would succeed
        int answeredByB = 0;
        RpcTimeoutException timeout = null;
        for (int i = 0; i < 4 && timeout == null; i++) {
            try {
                assertEquals("b", who.held());
                answeredByB++;
            } catch (RpcTimeoutException e) {
                timeout = e;
            }
        }
        assertTrue(timeout != null, "round robin never chose the holding provider");
        assertTrue(timeout.getMessage().contains("held"), timeout.getMessage());
        assertEquals(1, a.heldCalls.get(), "the timed-out call ran once on a");
        assertEquals(answeredByB, b.heldCalls.get(), "the timed-out call was retried on b");
    }

    @Test
    void idempotentReferencesOptInToRetryingTimeoutsOnTheOtherProvider() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        WhoService who = reference(provider(a) + "," + provider(b), ReferenceConfig.builder(WhoService.class)
                .timeout(Duration.ofMillis(300)).retries(1).idempotent(true));
        a.hold();
        b.hold();
        assertThrows(RpcTimeoutException.class, who::held);
        // the retry was sent before the caller saw the timeout; it reaches b's service on b's own schedule
        Await.until("the retry arrived", () -> a.heldCalls.get() + b.heldCalls.get() == 2);
        assertEquals(1, a.heldCalls.get(), "one attempt per provider");
        assertEquals(1, b.heldCalls.get(), "one attempt per provider");
    }

    @Test
    void failfastDoesNotRetryAndFailsafeReturnsNull() throws Exception {
        NamedWho a = new NamedWho("a");
        NamedWho b = new NamedWho("b");
        String urls = provider(a) + "," + provider(b);
        WhoService failfast = reference(urls, roundRobin("failfast"));
        WhoService failsafe = reference(urls, roundRobin("failsafe"));
        for (int i = 1; i <= 4; i++) {
            assertThrows(IllegalStateException.class, () -> failfast.fail("x"));
            assertEquals(i, a.failCalls.get() + b.failCalls.get(), "failfast ran a call twice");
        }
        assertTrue(a.failCalls.get() > 0 && b.failCalls.get() > 0);
        assertEquals(a.failCalls.get() + b.failCalls.get(), 4);
        assertNull(failsafe.fail("swallowed"), "failsafe swallows the service exception");
        assertEquals(5, a.failCalls.get() + b.failCalls.get(), "and does not retry it either");
        assertEquals(List.of("a", "b"), List.of(failsafe.who(), failsafe.who()).stream().sorted().toList());
    }

    private static Map<Long, Integer> runsById(NamedWho p) {
        return p.recorded.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()));
    }
}
