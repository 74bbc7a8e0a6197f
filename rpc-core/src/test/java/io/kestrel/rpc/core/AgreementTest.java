package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.core.fixture.shop.Address;
import io.kestrel.rpc.core.fixture.shop.Customer;
import io.kestrel.rpc.core.fixture.shop.Order;
import io.kestrel.rpc.core.fixture.shop.OrderLine;
import io.kestrel.rpc.core.fixture.shop.OrderService;
import io.kestrel.rpc.core.fixture.shop.OrderServiceImpl;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizer;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizerReordered;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizerWithoutLines;
import java.time.Duration;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 12, trap 1 and the check="true" half of trap 4, as a Dubbo user meets them: serialization and
 * optimizer are set on the provider's protocol only, the consumer has a plain reference. Real
 * ZooKeeper (curator-test), real sockets on loopback, nested DTOs.
 */
@Timeout(60)
class AgreementTest {
    private TestingServer zk;
    private RpcRuntime provider;
    private RpcRuntime consumer;
    private Exporter exported;

    @BeforeEach
    void start() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stop() throws Exception {
        if (consumer != null) {
            consumer.close();
        }
        if (provider != null) {
            provider.close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString()).build();
    }

    /** {@code <rpc:protocol serialization="kryo" optimizer="...ShopOptimizer"/>}, exported to the registry. */
    private void kryoProviderWithOptimizer(boolean withRegistry) {
        RpcRuntime.Builder b = RpcRuntime.builder()
                .protocol(TestRuntimes.loopback().serialization("kryo").optimizer(ShopOptimizer.class).build());
        provider = (withRegistry ? b.registry(registry()) : b).build();
        exported = provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
    }

    private RpcRuntime plainConsumer(boolean withRegistry) {
        RpcRuntime.Builder b = RpcRuntime.builder();
        consumer = (withRegistry ? b.registry(registry()) : b).build();
        return consumer;
    }

    private static void assertContains(String text, String... parts) {
        for (String part : parts) {
            assertTrue(text.contains(part), "missing '" + part + "' in: " + text);
        }
    }

    @Test
    void thePlainReferenceAdoptsTheProvidersKryoAndOptimizerFromTheRegistryRecord() {
        kryoProviderWithOptimizer(true);
        ProviderInfo record = exported.provider();
        assertEquals("kryo", record.attribute(ProviderInfo.PREFERRED_SERIALIZATION).orElseThrow());
        assertEquals(ShopOptimizer.class.getName(), record.attribute(ProviderInfo.OPTIMIZER).orElseThrow());
        assertEquals(Order.class.getName() + ",.Customer,.Address,.OrderLine",
                record.attribute(ProviderInfo.OPTIMIZER_CLASSES).orElseThrow(), "same package: .SimpleName");
        assertTrue(record.attribute(ProviderInfo.OPTIMIZER_FINGERPRINT).orElseThrow().matches("[0-9a-f]{16}"));

        OrderService orders = plainConsumer(true).refer(ReferenceConfig.builder(OrderService.class).build());
        // the provider accepts kryo only: before, this consumer used its own default (fory) and every call failed
        Order placed = orders.place(Order.sample());
        assertEquals(Order.sample().withId("order-12"), placed);
        for (int i = 0; i < 20; i++) {
            assertEquals(placed, orders.place(Order.sample()));
        }
        // the same serialization set on the reference without an optimizer (before: "Encountered unregistered class
        // ID"): the provider's optimizer is adopted all the same
        OrderService kryo = consumer.refer(ReferenceConfig.builder(OrderService.class).serialization("kryo").build());
        assertEquals(placed, kryo.place(Order.sample()));
    }

    @Test
    void theSameClassesInAnotherOrderFailAtReferNamingTheFirstDifferenceAndBothOptimizers() {
        kryoProviderWithOptimizer(true);
        NoProviderException e = assertThrows(NoProviderException.class, () -> plainConsumer(true)
                .refer(ReferenceConfig.builder(OrderService.class).optimizer(ShopOptimizerReordered.class).build()));
        assertContains(e.getMessage(), "registers other classes than this consumer with kryo",
                "provider: optimizer " + ShopOptimizer.class.getName() + ", 4 classes",
                "this consumer: optimizer " + ShopOptimizerReordered.class.getName() + " (optimizer= on the reference), 4 classes",
                "first difference at position 2: provider registers " + Customer.class.getName() + ", this consumer "
                        + Address.class.getName(),
                "(the same classes in another order)", "remove optimizer= from the reference");
    }

    @Test
    void aClassMissingFromTheConsumersOptimizerIsNamed() {
        kryoProviderWithOptimizer(true);
        NoProviderException e = assertThrows(NoProviderException.class, () -> plainConsumer(true)
                .refer(ReferenceConfig.builder(OrderService.class).optimizer(ShopOptimizerWithoutLines.class).build()));
        assertContains(e.getMessage(), "first difference at position 4: provider registers " + OrderLine.class.getName()
                + ", this consumer nothing more", "missing here: [" + OrderLine.class.getName() + "]");
    }

    @Test
    void aSerializationTheProviderDoesNotAcceptFailsAtStartupWithCheckTrueAndEveryCallExplainsItWithout() {
        kryoProviderWithOptimizer(true);
        NoProviderException e = assertThrows(NoProviderException.class, () -> plainConsumer(true)
                .refer(ReferenceConfig.builder(OrderService.class).serialization("fastjson2").build()));
        assertContains(e.getMessage(), "at startup", "does not accept serialization fastjson2",
                "it accepts [kryo] and prefers kryo", "Remove serialization= from the reference",
                "this reference: serialization fastjson2 (set on it)");

        OrderService unchecked = consumer.refer(ReferenceConfig.builder(OrderService.class).serialization("fastjson2")
                .check(false).build());
        NoProviderException call = assertThrows(NoProviderException.class, () -> unchecked.place(Order.sample()));
        assertContains(call.getMessage(), "left out: provider", "does not accept serialization fastjson2");
    }

    @Test
    void aDirectReferenceAdoptsThroughTheHandshake() {
        kryoProviderWithOptimizer(false);
        String url = "127.0.0.1:" + provider.boundPort();
        OrderService orders = plainConsumer(false).refer(ReferenceConfig.builder(OrderService.class).url(url).build());
        assertEquals(Order.sample().withId("order-12"), orders.place(Order.sample()));

        NoProviderException e = assertThrows(NoProviderException.class, () -> consumer.refer(ReferenceConfig
                .builder(OrderService.class).url(url).optimizer(ShopOptimizerReordered.class).build()));
        assertContains(e.getMessage(), "direct url " + url, "first difference at position 2");
    }

    @Test
    void aProviderOptimizerMissingFromTheConsumersClassPathIsNamedWithTheFix() {
        kryoProviderWithOptimizer(true);
        // a provider record as one from a JVM whose optimizer class this consumer does not have
        ProviderInfo real = exported.provider();
        ProviderInfo foreign = new ProviderInfo(real.host(), real.port(), new io.kestrel.rpc.api.ServiceKey(
                OrderService.class.getName(), "2.0", ""), real.serializationIds(), 100, real.methods())
                .withAttributes(Map.of(ProviderInfo.PREFERRED_SERIALIZATION, "kryo",
                        ProviderInfo.OPTIMIZER, "com.example.shop.MissingOptimizer",
                        ProviderInfo.OPTIMIZER_CLASSES, "com.example.shop.Order",
                        ProviderInfo.OPTIMIZER_FINGERPRINT, "0123456789abcdef"));
        try (Registry direct = Registries.create(registry())) {
            direct.register(foreign);
            NoProviderException e = assertThrows(NoProviderException.class, () -> plainConsumer(true)
                    .refer(ReferenceConfig.builder(OrderService.class).version("2.0").build()));
            assertContains(e.getMessage(), "this consumer cannot load that class",
                    "Add com.example.shop.MissingOptimizer to the consumer's class path");
        }
    }

    @Test
    void aProviderWithoutOptimizerAndAConsumerWithOneDisagreeForKryoButNotForHessian2() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("kryo").build())
                .registry(registry()).build();
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).serialization("kryo")
                .serialization("hessian2").build());
        NoProviderException e = assertThrows(NoProviderException.class, () -> plainConsumer(true)
                .refer(ReferenceConfig.builder(OrderService.class).optimizer(ShopOptimizer.class).build()));
        assertContains(e.getMessage(), "provider: no optimizer (registers no classes)");
        // hessian2 names classes in the stream: registering them only allows them, so the lists need not match
        OrderService viaHessian = consumer.refer(ReferenceConfig.builder(OrderService.class).serialization("hessian2")
                .optimizer(ShopOptimizer.class).timeout(Duration.ofSeconds(5)).build());
        assertEquals(Order.sample().withId("order-12"), viaHessian.place(Order.sample()));
    }

    @Test
    void aPlainReferenceAlsoAdoptsTheProvidersCompatibleMode() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("fory").compatible(true)
                .optimizer(ShopOptimizer.class).build()).build();
        exported = provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
        assertEquals("true", exported.provider().attribute(ProviderInfo.COMPATIBLE).orElseThrow());
        OrderService orders = plainConsumer(false).refer(ReferenceConfig.builder(OrderService.class)
                .url("127.0.0.1:" + provider.boundPort()).build());
        assertEquals(Order.sample().withId("order-12"), orders.place(Order.sample()));
    }
}
