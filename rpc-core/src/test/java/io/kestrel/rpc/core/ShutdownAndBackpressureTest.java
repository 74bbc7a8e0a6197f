package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/** Graceful shutdown, rolling restart under load, and explicit "busy" answers instead of queues. */
class ShutdownAndBackpressureTest {

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        Await.until(what, Duration.ofSeconds(15), condition);
    }

    private static RpcRuntime whoProvider(RegistryConfig registry, int port, NamedWho impl) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().port(port)
                .shutdownTimeout(Duration.ofSeconds(5)).build()).registry(registry).build();
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        return r;
    }

    /**
     * Six threads call {@code record(id)} with their own ids while provider b is closed (unregister, "going
     * away", drain) and started again on its port. No call may fail, and each one must have run exactly once
     * on the three provider instances together: calls refused by the closing provider were retried because
     * they certainly had not run, calls it had accepted were drained, never sent twice.
     */
    @Test
    void rollingRestartOfOneOfTwoProvidersUnderLoadRunsEveryCallExactlyOnce() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
            NamedWho aImpl = new NamedWho("a");
            RpcRuntime a = whoProvider(registry, 0, aImpl);
            NamedWho bImpl = new NamedWho("b");
            RpcRuntime b = whoProvider(registry, 0, bImpl);
            int bPort = b.boundPort();
            NamedWho b2 = new NamedWho("b2");
            RpcRuntime consumer = RpcRuntime.builder().registry(registry).build();
            RpcRuntime restarted = null;
            try {
                WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin")
                        .timeout(Duration.ofSeconds(5)).build());
                AtomicBoolean running = new AtomicBoolean(true);
                Set<Long> succeeded = ConcurrentHashMap.newKeySet();
                Map<Long, RuntimeException> failed = new ConcurrentHashMap<>();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    long base = t * 1_000_000_000L;
                    Thread th = new Thread(() -> {
                        for (long id = base; running.get(); id++) {
                            try {
                                who.record(id);
                                succeeded.add(id);
                            } catch (RuntimeException e) {
                                failed.put(id, e);
                            }
                        }
                    }, "load-" + t);
                    th.start();
                    threads.add(th);
                }
                await("load on both providers", () -> bImpl.recordedRuns() > 100 && aImpl.recordedRuns() > 100);

                b.close(); // unregister, go away, drain, close
                restarted = whoProvider(registry, bPort, b2);
                await("restarted provider takes traffic", () -> b2.recordedRuns() > 100);

                running.set(false);
                for (Thread th : threads) {
                    th.join(10_000);
                    assertFalse(th.isAlive(), th.getName() + " did not stop");
                }
                System.out.printf("rolling restart: %d calls succeeded (a %d, b %d, b2 %d), %d failed%n", succeeded.size(),
                        aImpl.recordedRuns(), bImpl.recordedRuns(), b2.recordedRuns(), failed.size());
                assertEquals(Map.of(), failed, "calls lost during the rolling restart");
                for (long id : succeeded) {
                    int runs = runs(aImpl, id) + runs(bImpl, id) + runs(b2, id);
                    assertEquals(1, runs, "call " + id + " ran " + runs + " times");
                }
                assertEquals(succeeded.size(), aImpl.recordedRuns() + bImpl.recordedRuns() + b2.recordedRuns(),
                        "the providers ran calls that no caller saw succeed");
            } finally {
                consumer.close();
                a.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    private static int runs(NamedWho p, long id) {
        AtomicInteger n = p.recorded.get(id);
        return n == null ? 0 : n.get();
    }

    @Test
    void closingProviderFinishesInFlightCallsBeforeClosing() throws Exception {
        NamedWho impl = new NamedWho("p");
        RpcRuntime provider = whoProvider(null, 0, impl);
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(10)).build());
            assertEquals("p", who.who());
            impl.hold();
            CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(who::held);
            impl.awaitEntered(1, Duration.ofSeconds(10));
            Thread closer = new Thread(provider::close, "closer");
            closer.start();
            // close() first refuses new calls ("going away"), then drains: it waits (up to the 5 s shutdown
            // timeout) for the held call, which is released only once new calls are refused
            await("the closing provider refuses new calls", () -> {
                try {
                    who.who();
                    return false;
                } catch (RpcException refused) {
                    return true;
                }
            });
            assertTrue(closer.isAlive(), "close() returned while a call was in flight");
            assertFalse(inFlight.isDone(), "the in-flight call ended before it was released");
            impl.release();
            assertEquals("p", inFlight.get(10, TimeUnit.SECONDS), "the in-flight call completes");
            closer.join(10_000);
            assertFalse(closer.isAlive(), "close() did not return after the drain");
            assertEquals(0, provider.inspect().snapshot().server().inFlightCalls());
        } finally {
            impl.release();
            consumer.close();
            provider.close();
        }
    }

    @Test
    void fullBusinessPoolAnswersServerBusyAtOnce() throws Exception {
        // the connection's share (2) is larger than the pool (1 thread): the pool is what fills
        ProtocolConfig oneThread = TestRuntimes.loopback().threads(1).queueCapacity(0)
                .limits(io.kestrel.rpc.api.config.ServerLimits.builder().callsPerConnection(2).build()).build();
        RpcRuntime provider = RpcRuntime.builder().protocol(oneThread).build();
        NamedWho impl = new NamedWho("p");
        provider.export(ServiceConfig.builder(WhoService.class, impl).build());
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
            impl.hold();
            CompletableFuture<String> hog = CompletableFuture.supplyAsync(who::held);
            impl.awaitEntered(1, Duration.ofSeconds(10));
            // the only thread stays taken until released below: an answer now cannot have waited for it
            ServerBusyException e = assertThrows(ServerBusyException.class, who::who);
            assertTrue(e.getMessage().contains("busy") && e.getMessage().contains("did not run"), e.getMessage());
            assertFalse(hog.isDone());
            assertEquals(0, impl.whoCalls.get(), "the refused call ran");
            impl.release();
            assertEquals("p", hog.get(5, TimeUnit.SECONDS));
            // the thread answers before it is back in the pool: a call right after the answer may still find it taken
            Await.until("the thread is free again", () -> {
                try {
                    return "p".equals(who.who());
                } catch (ServerBusyException stillTaken) {
                    return false;
                }
            });
        } finally {
            impl.release();
            consumer.close();
            provider.close();
        }
    }

    @Test
    void consumerCapsPendingCallsPerConnection() throws Exception {
        NamedWho impl = new NamedWho("p");
        RpcRuntime provider = whoProvider(null, 0, impl);
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .maxPendingCalls(2).url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
            impl.hold();
            CompletableFuture<String> first = CompletableFuture.supplyAsync(who::held);
            CompletableFuture<String> second = CompletableFuture.supplyAsync(who::held);
            impl.awaitEntered(2, Duration.ofSeconds(10));
            ServerBusyException e = assertThrows(ServerBusyException.class, who::who);
            assertTrue(e.getMessage().contains("max-pending"), e.getMessage());
            assertEquals(0, impl.whoCalls.get(), "the refused call reached the provider");
            impl.release();
            assertEquals("p", first.get(5, TimeUnit.SECONDS));
            assertEquals("p", second.get(5, TimeUnit.SECONDS));
            assertEquals("p", who.who(), "capacity is back once calls complete");
        } finally {
            impl.release();
            consumer.close();
            provider.close();
        }
    }
}
