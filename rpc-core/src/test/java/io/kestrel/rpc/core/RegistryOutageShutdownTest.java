package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import io.kestrel.rpc.testing.Await;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * What a provider publishes with a registry on this host, and how it shuts down while ZooKeeper is down: never
 * waiting on the registry beyond its unregister timeout, and still draining the calls in flight.
 */
class RegistryOutageShutdownTest {
    private static final Duration SHUTDOWN = Duration.ofSeconds(5);
    private static final Duration UNREGISTER = Duration.ofSeconds(1);

    private static RegistryConfig registry(TestingServer zk) {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(30)).unregisterTimeout(UNREGISTER).build();
    }

    /** A provider configured the Dubbo way: no host. */
    private static RpcRuntime provider(RegistryConfig registry, NamedWho impl) {
        RpcRuntime r = RpcRuntime.builder().protocol(ProtocolConfig.builder().port(0).shutdownTimeout(SHUTDOWN)
                .build()).registry(registry).build();
        r.export(ServiceConfig.builder(WhoService.class, impl).build());
        return r;
    }

    @Test
    void withALoopbackRegistryTheProviderAndConsumerRecordsSayLoopbackAsTheDemoNeeds() throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            RpcRuntime p = provider(registry(zk), new NamedWho("p"));
            RpcRuntime consumer = RpcRuntime.builder().registry(registry(zk)).build();
            try {
                WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class)
                        .timeout(Duration.ofSeconds(5)).build());
                assertEquals("p", who.who());
                ServiceKey key = new ServiceKey(WhoService.class.getName(), "", "");
                List<ProviderInfo> providers = consumer.inspect().providers(key);
                assertEquals(1, providers.size(), providers.toString());
                assertEquals("127.0.0.1", providers.get(0).host());
                List<ConsumerInfo> consumers = p.inspect().consumers(key);
                assertEquals(1, consumers.size(), consumers.toString());
                assertEquals("127.0.0.1", consumers.get(0).host());
            } finally {
                consumer.close();
                p.close();
            }
        }
    }

    @Test
    void closingWhileZooKeeperIsDownDoesNotWaitForItAndDrainsTheCallInFlight() throws Exception {
        closeDuringOutage(true);
    }

    @Test
    void closingTheMomentZooKeeperStopsIsBoundedByTheUnregisterTimeout() throws Exception {
        closeDuringOutage(false); // the client may not have noticed yet: the unregister timeout bounds the wait
    }

    private static void closeDuringOutage(boolean awaitDisconnect) throws Exception {
        try (TestingServer zk = new TestingServer(true)) {
            NamedWho impl = new NamedWho("p");
            RpcRuntime p = provider(registry(zk), impl);
            RpcRuntime consumer = RpcRuntime.builder().build();
            try {
                WhoService who = consumer.refer(ReferenceConfig.builder(WhoService.class)
                        .url("127.0.0.1:" + p.boundPort()).timeout(Duration.ofSeconds(20)).build());
                assertEquals("p", who.who());
                impl.hold();
                CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(who::held);
                impl.awaitEntered(1, Duration.ofSeconds(10));
                zk.stop();
                if (awaitDisconnect) {
                    Await.until("the provider notices ZooKeeper is gone", () -> !p.inspect().snapshot().registryConnected());
                }
                long start = System.nanoTime();
                Thread closer = new Thread(p::close, "closer");
                closer.start();
                // draining: new calls refused while the held one is still in flight
                Await.until("the closing provider refuses new calls", () -> {
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
                closer.join(SHUTDOWN.plus(UNREGISTER).plusSeconds(10).toMillis());
                long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertFalse(closer.isAlive(), "close() still waits after " + tookMs + " ms");
                System.out.printf("close with ZooKeeper down (await disconnect %s): %d ms%n", awaitDisconnect, tookMs);
                // the call was released as soon as the drain began; what else close() took is registry waiting
                long boundMs = UNREGISTER.toMillis() + 1_000 /* notice pause */ + 3_000 /* slack for a busy host */;
                assertTrue(tookMs < boundMs, "close took " + tookMs + " ms, more than " + boundMs
                        + " ms: it waited on the unreachable registry");
                assertEquals(0, p.inspect().snapshot().server().inFlightCalls());
            } finally {
                impl.release();
                consumer.close();
                p.close();
            }
        }
    }
}
