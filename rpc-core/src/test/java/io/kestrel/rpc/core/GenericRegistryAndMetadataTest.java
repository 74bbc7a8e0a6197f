package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.generic.MethodMetadata;
import io.kestrel.rpc.api.generic.ParameterMetadata;
import io.kestrel.rpc.api.generic.PropertyMetadata;
import io.kestrel.rpc.api.generic.ServiceMetadata;
import io.kestrel.rpc.api.generic.TypeDetails;
import io.kestrel.rpc.api.generic.TypeInfo;
import io.kestrel.rpc.api.generic.TypeKind;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Generic calls and service metadata through a real in-process ZooKeeper, and metadata asked directly. */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericRegistryAndMetadataTest {
    static final ServiceKey KEY = new ServiceKey(OrderService.class.getName(), "1.0", "shop");
    private static TestingServer zk;
    private static RpcRuntime provider;
    private static RpcRuntime consumer;

    @BeforeAll
    static void start() throws Exception {
        zk = new TestingServer(true);
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("kryo").build())
                .registry(registry()).loadInterceptors(false).build();
        provider.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).version("1.0").group("shop")
                .serialization("kryo").serialization("fory").build());
        consumer = RpcRuntime.builder().registry(registry()).loadInterceptors(false).build();
    }

    @AfterAll
    static void stop() throws Exception {
        consumer.close();
        provider.close();
        zk.close();
    }

    static RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5)).build();
    }

    private static String address() {
        return "127.0.0.1:" + provider.boundPort();
    }

    @Test
    void genericCallsFindTheProviderInTheRegistrySyncAndAsync() throws Exception {
        GenericService orders = consumer.refer(ReferenceConfig.generic(OrderService.class.getName()).version("1.0")
                .group("shop").timeout(Duration.ofSeconds(5)).build());
        assertEquals(7, ((Number) orders.$invoke("add", new String[] {"int", "int"}, new Object[] {3, 4})).intValue());
        Object placed = orders.$invokeAsync("place", new String[] {"io.kestrel.rpc.core.fixture.orders.Order"},
                new Object[] {GenericInvocationTest.orderTree()}).get(5, TimeUnit.SECONDS);
        assertEquals("PAID", ((Map<?, ?>) placed).get("status"));
        ServiceMetadata viaReference = orders.$metadata();
        assertEquals(address(), viaReference.provider());
        assertSame(viaReference, orders.$metadata(), "cached per provider");
        // the generic consumer is recorded like any other
        assertTrue(consumer.inspect().consumers(KEY).stream().anyMatch(c -> c.toString().contains(OrderService.class.getName())));
    }

    @Test
    void metadataThroughTheRegistryAndDirectlyIsCachedPerProvider() {
        ServiceMetadata viaRegistry = consumer.inspect().metadata(KEY);
        assertSame(viaRegistry, consumer.inspect().metadata(KEY));
        assertSame(viaRegistry, consumer.inspect().metadata(KEY, address()));
        try (RpcRuntime direct = RpcRuntime.builder().loadInterceptors(false).build()) {
            ServiceMetadata asked = direct.inspect().metadata(KEY, address());
            assertEquals(viaRegistry, asked);
            IllegalStateException noRegistry = assertThrows(IllegalStateException.class, () -> direct.inspect().metadata(KEY));
            assertTrue(noRegistry.getMessage().contains("has no registry"), noRegistry.getMessage());
        }
        NoProviderException none = assertThrows(NoProviderException.class,
                () -> consumer.inspect().metadata(new ServiceKey(OrderService.class.getName(), "9.9", "shop")));
        assertTrue(none.getMessage().contains("No provider of shop/" + OrderService.class.getName() + ":9.9"),
                none.getMessage());
    }

    @Test
    void metadataDescribesMethodsParametersTypesAndBeans() {
        ServiceMetadata m = consumer.inspect().metadata(KEY, address());
        assertEquals(OrderService.class.getName(), m.interfaceName());
        assertEquals("1.0", m.version());
        assertEquals("shop", m.group());
        assertEquals(address(), m.provider());
        assertEquals(List.of("kryo", "fory"), m.serializations());
        assertEquals(3, m.methods("add").size());
        assertEquals(List.of("add(int, int)", "add(java.lang.String, java.lang.String)", "add(long, long)"),
                m.methods("add").stream().map(MethodMetadata::signature).sorted().toList());

        MethodMetadata place = m.methods("place").get(0);
        ParameterMetadata order = place.parameters().get(0);
        assertEquals("order", order.name());
        assertTrue(order.namePresent(), "the tests compile with -parameters");
        assertEquals(TypeKind.BEAN, order.type().kind());
        assertEquals("io.kestrel.rpc.core.fixture.orders.Order", order.type().className());
        assertEquals(List.of("io.kestrel.rpc.core.fixture.orders.Order"), List.of(place.parameterTypeNames()));

        MethodMetadata placeAsync = m.methods("placeAsync").get(0);
        assertTrue(placeAsync.async());
        assertEquals("io.kestrel.rpc.core.fixture.orders.Order", placeAsync.returnType().className());

        MethodMetadata add = m.methods("add").stream().filter(x -> x.signature().equals("add(int, int)")).findFirst()
                .orElseThrow();
        assertTrue(add.parameters().get(0).type().primitive());
        assertEquals(TypeKind.NUMBER, add.parameters().get(0).type().kind());
        assertEquals(List.of("io.kestrel.rpc.core.fixture.orders.OrderRejectedException"),
                m.methods("reject").get(0).exceptionTypes());
        assertEquals(TypeKind.VOID, m.methods("reject").get(0).returnType().kind());
        assertEquals(TypeKind.BYTES, m.methods("reversed").get(0).returnType().kind());

        TypeDetails orderType = m.types().get("io.kestrel.rpc.core.fixture.orders.Order");
        Map<String, TypeInfo> props = orderType.properties().stream()
                .collect(java.util.stream.Collectors.toMap(PropertyMetadata::name, PropertyMetadata::type));
        assertEquals(List.of("id", "customer", "lines", "status", "created", "tags", "express", "reference"),
                orderType.properties().stream().map(PropertyMetadata::name).toList());
        assertEquals(TypeKind.COLLECTION, props.get("lines").kind());
        assertEquals("java.util.List<io.kestrel.rpc.core.fixture.orders.Line>", props.get("lines").name());
        assertEquals(TypeKind.BEAN, props.get("lines").arguments().get(0).kind());
        assertEquals(TypeKind.ENUM, props.get("status").kind());
        assertEquals(TypeKind.DATE_TIME, props.get("created").kind());
        assertEquals(TypeKind.MAP, props.get("tags").kind());
        assertEquals(List.of(TypeKind.STRING, TypeKind.NUMBER),
                props.get("tags").arguments().stream().map(TypeInfo::kind).toList());
        assertEquals(List.of("NEW", "PAID", "SHIPPED"),
                m.types().get("io.kestrel.rpc.core.fixture.orders.Status").constants());
        TypeDetails money = m.types().get("io.kestrel.rpc.core.fixture.orders.Money");
        assertTrue(money.record());
        assertEquals(List.of("amount", "currency"), money.properties().stream().map(PropertyMetadata::name).toList());
        assertTrue(m.types().containsKey("io.kestrel.rpc.core.fixture.orders.Address"), "nested beans are described");
        // a type that refers to itself is described once, its property pointing back by name
        TypeDetails node = m.types().get("io.kestrel.rpc.core.fixture.orders.Node");
        assertEquals("io.kestrel.rpc.core.fixture.orders.Node", node.properties().get(1).type().className());
        // abstract and interface types are not beans
        assertEquals(TypeKind.ANY, m.methods("shapeName").get(0).parameters().get(0).type().kind());
        assertFalse(m.types().containsKey("io.kestrel.rpc.core.fixture.orders.Shape"));
    }
}
