package io.kestrel.rpc.interop.dubbo.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ApplicationConfig;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.testing.Await;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import io.kestrel.rpc.interop.dubbo.Loopback;
import org.apache.curator.test.TestingServer;
import org.apache.dubbo.rpc.RpcException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The registry half of Dubbo interop, against stock Apache Dubbo 3.3 on one real ZooKeeper (curator-test): a
 * stock provider's interface-level record is a provider for a {@code protocol="dubbo"} subscription, and a
 * stock consumer with Dubbo's default settings finds, calls, loses and finds again a provider through the record
 * our registry writes. Independent of the wire codecs: the record written here points at a stock Dubbo provider
 * that registered nothing itself.
 */
@Timeout(120)
class DubboRegistryInteropTest {
    /** Where stock Dubbo providers are dialled and registered: loopback ({@link Loopback} pins Dubbo to it). */
    private static final String LOCAL_HOST = Loopback.HOST;
    private static TestingServer zk;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterAll
    static void stopZooKeeper() throws IOException {
        zk.close();
    }

    private static Registry registry() {
        return Registries.create(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(5)).build());
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void aStockProviderIsAProviderOfProtocolDubboAndItsRestartIsNoticed() throws Exception {
        ServiceKey key = new ServiceKey(Greeter.class.getName(), "1.0", "");
        int port = freePort();
        AtomicReference<List<ProviderInfo>> told = new AtomicReference<>(List.of());
        try (Registry registry = registry()) {
            registry.subscribe(key, "dubbo", (service, providers) -> told.set(providers));
            StockDubbo provider = StockDubbo.provider(zk.getConnectString(), port, "1.0", "hello", true);
            try (StockDubbo other = StockDubbo.provider(zk.getConnectString(), freePort(), "2.0", "other", true)) {
                Await.until("the stock provider of version 1.0 listed", () -> told.get().size() == 1);
                ProviderInfo p = told.get().get(0);
                // Dubbo treats 127.x as no address: it binds every interface and registers the host's own address
                assertEquals(port, p.port(), p.toString());
                assertEquals(key, p.service());
                assertEquals("dubbo", p.protocol());
                assertEquals(List.of("greet"), p.methods());
                assertEquals(List.of((byte) 2, (byte) 6), p.serializationIds(), "prefer.serialization=hessian2,fastjson2");
                assertEquals("stock-provider", p.attribute(ProviderInfo.APPLICATION).orElseThrow());

                provider.close();
                Await.until("the stopped provider gone", () -> told.get().isEmpty());
                provider = StockDubbo.provider(zk.getConnectString(), port, "1.0", "hello", true);
                Await.until("the restarted provider listed again", () -> told.get().size() == 1);
            } finally {
                provider.close();
            }
        }
    }

    @Test
    void aStockConsumerCallsThroughOurRecordAndNoticesItGoAndComeBack() throws Exception {
        int port = freePort();
        ServiceKey key = new ServiceKey(Greeter.class.getName(), "1.0", "");
        ProviderInfo record = new ProviderInfo("127.0.0.1", port, key, List.of((byte) 2), 100, List.of("greet"))
                .withAttributes(Map.of(ProviderInfo.PROTOCOL, "dubbo", ProviderInfo.APPLICATION, "kestrel-provider",
                        ProviderInfo.PREFERRED_SERIALIZATION, "hessian2"));
        try (StockDubbo target = StockDubbo.provider(zk.getConnectString(), port, "1.0", "via our record", false);
                Registry registry = registry()) {
            registry.register(record);
            try (StockDubbo consumer = StockDubbo.consumer(zk.getConnectString(), "1.0")) {
                Greeter greeter = consumer.greeter();
                Await.until("the stock consumer calls through our record", () -> answers(greeter));
                assertEquals("via our record ada", greeter.greet("ada"));

                registry.unregister(record);
                Await.until("the stock consumer has no provider once our record is gone", () -> !answers(greeter));
                RpcException e = assertThrows(RpcException.class, () -> greeter.greet("ada"));
                assertTrue(e.getMessage().contains("No provider available"), e.getMessage());

                registry.register(record);
                Await.until("the stock consumer calls again once the record is back", () -> answers(greeter));
            }
        }
    }

    /**
     * End to end: a Kestrel provider exported on the dubbo protocol registers itself in Dubbo's layout, and a stock
     * consumer (Dubbo's default migration rule) finds it in ZooKeeper, calls it, sees it leave when the runtime
     * closes and finds its replacement on another port.
     */
    @Test
    void aStockConsumerFindsOurDubboProviderThroughZooKeeperAndFollowsItsRestart() throws Exception {
        RpcRuntime provider = kestrelProvider("kestrel");
        try (StockDubbo consumer = StockDubbo.consumer(zk.getConnectString(), "2.0")) {
            Greeter greeter = consumer.greeter();
            Await.until("the stock consumer calls our provider", () -> answers(greeter));
            assertEquals("kestrel ada", greeter.greet("ada"));

            provider.close();
            Await.until("the stock consumer has no provider once ours closed", () -> !answers(greeter));
            provider = kestrelProvider("restarted");
            Await.until("the stock consumer calls the restarted provider", () -> "restarted ada".equals(call(greeter)));
        } finally {
            provider.close();
        }
    }

    /**
     * A service exported with fastjson2 only publishes serialization=fastjson2 (prefer.serialization=fastjson2) in
     * its Dubbo record; a stock consumer reads it, sends Dubbo's fastjson2 (id 23) and is answered (the service
     * would refuse hessian2).
     */
    @Test
    void aStockConsumerCallsOurFastjson2ProviderWithFastjson2FromItsRecord() throws Exception {
        RpcRuntime provider = RpcRuntime.builder()
                .application(new ApplicationConfig("kestrel-fastjson2-provider"))
                .protocol(ProtocolConfig.builder().name("dubbo").host(LOCAL_HOST).port(0).build())
                .registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                        .sessionTimeout(Duration.ofSeconds(5)).build())
                .build();
        try (StockDubbo consumer = StockDubbo.consumer(zk.getConnectString(), "4.0")) {
            provider.export(ServiceConfig.builder(Greeter.class, (Greeter) name -> "json " + name).version("4.0")
                    .serialization("fastjson2").build());
            Greeter greeter = consumer.greeter();
            Await.until("the stock consumer calls our fastjson2 provider", () -> "json ada".equals(call(greeter)));
        } finally {
            provider.close();
        }
    }

    /**
     * End to end the other way: a Kestrel reference with protocol="dubbo" finds a stock provider in ZooKeeper, calls
     * it, fails over to nothing when it stops, and calls its replacement on another port.
     */
    @Test
    void ourDubboReferenceFindsAStockProviderThroughZooKeeperAndFollowsItsRestart() throws Exception {
        StockDubbo provider = StockDubbo.provider(zk.getConnectString(), freePort(), "3.0", "stock", true);
        try (RpcRuntime consumer = RpcRuntime.builder()
                .registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build()).build()) {
            Greeter greeter = consumer.refer(ReferenceConfig.builder(Greeter.class).protocol("dubbo").version("3.0")
                    .timeout(Duration.ofSeconds(3)).retries(0).build());
            Await.until("our reference calls the stock provider", () -> "stock ada".equals(kestrelCall(greeter)));

            provider.close();
            Await.until("our reference has no provider once the stock one stopped", () -> kestrelCall(greeter) == null);
            provider = StockDubbo.provider(zk.getConnectString(), freePort(), "3.0", "stock again", true);
            Await.until("our reference calls the restarted stock provider",
                    () -> "stock again ada".equals(kestrelCall(greeter)));
        } finally {
            provider.close();
        }
    }

    private static String kestrelCall(Greeter greeter) {
        try {
            return greeter.greet("ada");
        } catch (io.kestrel.rpc.api.RpcException e) {
            return null;
        }
    }

    private static RpcRuntime kestrelProvider(String reply) {
        RpcRuntime runtime = RpcRuntime.builder()
                .application(new ApplicationConfig("kestrel-provider"))
                .protocol(ProtocolConfig.builder().name("dubbo").host(LOCAL_HOST).port(0).build())
                .registry(RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                        .sessionTimeout(Duration.ofSeconds(5)).build())
                .build();
        runtime.export(ServiceConfig.builder(Greeter.class, (Greeter) name -> reply + " " + name).version("2.0").build());
        return runtime;
    }

    private static String call(Greeter greeter) {
        try {
            return greeter.greet("ada");
        } catch (RpcException e) {
            return null;
        }
    }

    private static boolean answers(Greeter greeter) {
        try {
            return greeter.greet("ada").endsWith(" ada");
        } catch (RpcException e) {
            return false;
        }
    }
}
