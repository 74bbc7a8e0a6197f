package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static RpcRuntime whoProvider(RegistryConfig registry, int port, NamedWho impl) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().port(port)
                .shutdownTimeout(Duration.ofSeconds(5)).build()).registry(registry).build();
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        return r;
    }

    @Test
    void rollingRestartOfOneOfTwoProvidersUnderLoadLosesNoCall() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            RegistryConfig registry = RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
            RpcRuntime a = whoProvider(registry, 0, new NamedWho("a"));
            NamedWho bImpl = new NamedWho("b");
            RpcRuntime b = whoProvider(registry, 0, bImpl);
            int bPort = b.boundPort();
            RpcRuntime consumer = RpcRuntime.builder().registry(registry).build();
            RpcRuntime restarted = null;
            try {
                WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).loadBalance("roundrobin")
                        .timeout(Duration.ofSeconds(5)).build());
                AtomicBoolean running = new AtomicBoolean(true);
                AtomicInteger ok = new AtomicInteger();
                Set<String> failures = ConcurrentHashMap.newKeySet();
                AtomicInteger failed = new AtomicInteger();
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    Thread th = new Thread(() -> {
                        while (running.get()) {
                            try {
                                who.slowWho(2); // a little work in flight at any moment
                                ok.incrementAndGet();
                            } catch (RuntimeException e) {
                                failed.incrementAndGet();
                                failures.add(e.toString());
                            }
                        }
                    }, "load-" + t);
                    th.start();
                    threads.add(th);
                }
                await("load on both providers", () -> bImpl.calls.get() > 100);

                b.close(); // unregister, go away, drain, close
                NamedWho b2 = new NamedWho("b2");
                restarted = whoProvider(registry, bPort, b2);
                await("restarted provider takes traffic", () -> b2.calls.get() > 100);

                running.set(false);
                for (Thread th : threads) {
                    th.join(10_000);
                }
                System.out.printf("rolling restart: %d calls succeeded, %d failed%n", ok.get(), failed.get());
                assertEquals(0, failed.get(), "calls lost during the rolling restart: " + failures);
                assertTrue(ok.get() > 200);
            } finally {
                consumer.close();
                a.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    @Test
    void closingProviderFinishesInFlightCallsBeforeClosing() throws Exception {
        RpcRuntime provider = whoProvider(null, 0, new NamedWho("p"));
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
            assertEquals("p", who.who());
            CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> who.slowWho(800));
            await("call in flight", () -> provider.inFlightCalls() == 1);
            long start = System.nanoTime();
            provider.close();
            long closeMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals("p", slow.get(5, TimeUnit.SECONDS), "the in-flight call completes");
            assertTrue(closeMs >= 500, "close waited for the in-flight call, took " + closeMs + " ms");
            assertEquals(0, provider.inFlightCalls());
        } finally {
            consumer.close();
            provider.close();
        }
    }

    @Test
    void fullBusinessPoolAnswersServerBusyAtOnce() throws Exception {
        ProtocolConfig oneThread = TestRuntimes.loopback().threads(1).queueCapacity(0).build();
        RpcRuntime provider = RpcRuntime.builder().protocol(oneThread).build();
        provider.export(ServiceConfig.builder(WhoService.class, new NamedWho("p")).build());
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
            CompletableFuture<String> hog = CompletableFuture.supplyAsync(() -> who.slowWho(1500));
            await("the only thread is taken", () -> provider.inFlightCalls() == 1);
            long start = System.nanoTime();
            ServerBusyException e = assertThrows(ServerBusyException.class, who::who);
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 1000, "busy answer must be immediate, took " + ms + " ms");
            assertTrue(e.getMessage().contains("busy") && e.getMessage().contains("did not run"), e.getMessage());
            assertEquals("p", hog.get(5, TimeUnit.SECONDS));
        } finally {
            consumer.close();
            provider.close();
        }
    }

    @Test
    void consumerCapsPendingCallsPerConnection() throws Exception {
        RpcRuntime provider = whoProvider(null, 0, new NamedWho("p"));
        RpcRuntime consumer = RpcRuntime.builder().build();
        try {
            WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class).cluster(ClusterMode.FAILFAST)
                    .maxPendingCalls(2).url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
            CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> who.slowWho(1000));
            CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> who.slowWho(1000));
            await("two calls pending", () -> provider.inFlightCalls() == 2);
            ServerBusyException e = assertThrows(ServerBusyException.class, who::who);
            assertTrue(e.getMessage().contains("max-pending"), e.getMessage());
            assertEquals("p", first.get(5, TimeUnit.SECONDS));
            assertEquals("p", second.get(5, TimeUnit.SECONDS));
            assertEquals("p", who.who(), "capacity is back once calls complete");
        } finally {
            consumer.close();
            provider.close();
        }
    }
}
