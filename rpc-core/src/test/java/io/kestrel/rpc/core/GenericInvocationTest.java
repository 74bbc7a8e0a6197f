package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.fixture.orders.Order;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generic invocation over real sockets in direct mode: a consumer without OrderService on its side of the
 * API calls it by name with plain trees, for each serialization that can carry the service.
 */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericInvocationTest {
    static final String SERVICE = OrderService.class.getName();
    static final String ORDER = Order.class.getName();
    private static final List<String> SEEN_BY_PROVIDER_INTERCEPTOR = new CopyOnWriteArrayList<>();
    private static final List<String> SEEN_BY_CLIENT_INTERCEPTOR = new CopyOnWriteArrayList<>();
    private static RpcRuntime provider;
    private static RpcRuntime consumer;
    private static GenericService orders;

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).loadInterceptors(false).build();
        ServerInterceptor recorder = chain -> {
            Object[] args = chain.call().arguments();
            SEEN_BY_PROVIDER_INTERCEPTOR.add(chain.call().methodName() + "/" + chain.call().method().getName() + "/"
                    + (args.length > 0 && args[0] != null ? args[0].getClass().getSimpleName() : "-"));
            return chain.proceed();
        };
        ServiceConfig.Builder<OrderService> service = ServiceConfig.builder(OrderService.class, new OrderServiceImpl())
                .version("2.0").interceptor(recorder);
        for (String s : List.of("fory", "kryo", "fastjson2", "java")) {
            service.serialization(s);
        }
        provider.export(service.build());
        consumer = RpcRuntime.builder().loadInterceptors(false).build();
        orders = consumer.refer(generic("fory").build());
    }

    @AfterAll
    static void stop() {
        consumer.close();
        provider.close();
    }

    static ReferenceConfig.Builder<GenericService> generic(String serialization) {
        return ReferenceConfig.generic(SERVICE).version("2.0").url("127.0.0.1:" + provider.boundPort())
                .serialization(serialization).timeout(Duration.ofSeconds(5));
    }

    static Map<String, Object> orderTree() {
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("city", "Lyon");
        address.put("zip", "69001");
        Map<String, Object> customer = new LinkedHashMap<>();
        customer.put("name", "Ada");
        customer.put("age", 36);
        customer.put("address", address);
        Map<String, Object> order = new LinkedHashMap<>();
        order.put("customer", customer);
        order.put("lines", List.of(
                Map.of("sku", "A-1", "quantity", 2, "price", Map.of("amount", "9.90", "currency", "EUR")),
                Map.of("sku", "B-2", "quantity", 1, "price", Map.of("amount", 120.5, "currency", "EUR"))));
        order.put("status", "NEW");
        order.put("created", "2026-11-23T10:15:30Z");
        order.put("tags", Map.of("gift", 1));
        order.put("express", true);
        order.put("reference", 12345678901L);
        return order;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object tree) {
        return assertInstanceOf(Map.class, tree);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fory", "kryo", "fastjson2", "java"})
    void nestedBeansRecordsListsEnumsAndDatesRoundTripAsTrees(String serialization) {
        try (RpcRuntime own = RpcRuntime.builder().loadInterceptors(false).build()) {
            GenericService g = own.refer(generic(serialization).build());
            Map<String, Object> placed = map(g.$invoke("place", new String[] {ORDER}, new Object[] {orderTree()}));
            assertTrue(((Number) placed.get("id")).longValue() > 1000, placed.toString());
            assertEquals("PAID", placed.get("status"));
            assertEquals("2026-11-23T10:15:30Z", placed.get("created"));
            assertEquals("Lyon", map(map(placed.get("customer")).get("address")).get("city"));
            assertEquals(36, ((Number) map(placed.get("customer")).get("age")).intValue());
            List<?> lines = assertInstanceOf(List.class, placed.get("lines"));
            assertEquals(2, lines.size());
            assertEquals("9.90", map(map(lines.get(0)).get("price")).get("amount").toString());
            assertEquals(Map.of("gift", 1), Map.of("gift", ((Number) map(placed.get("tags")).get("gift")).intValue()));
            assertEquals(true, placed.get("express"));
            assertEquals(12345678901L, ((Number) placed.get("reference")).longValue());
        }
    }

    @Test
    void listsOfBeansAndMapsOfListsOfRecords() {
        Object expensive = orders.$invoke("expensive", new String[] {"java.util.List", "double"},
                new Object[] {orderTree().get("lines"), 50});
        List<?> lines = assertInstanceOf(List.class, expensive);
        assertEquals(1, lines.size());
        assertEquals("B-2", map(lines.get(0)).get("sku"));

        Object totals = orders.$invoke("totals", new String[] {"java.util.Map"}, new Object[] {Map.of(
                "ada", List.of(Map.of("amount", "1.50", "currency", "EUR"), Map.of("amount", 2, "currency", "EUR")))});
        assertEquals("3.50", map(map(totals).get("ada")).get("amount").toString());
    }

    @Test
    void asyncFormsBothWays() throws Exception {
        CompletableFuture<Object> f = orders.$invokeAsync("place", new String[] {ORDER}, new Object[] {orderTree()});
        assertEquals("PAID", map(f.get(5, TimeUnit.SECONDS)).get("status"));
        // a service method returning CompletableFuture: $invoke waits for its value
        Object viaAsyncMethod = orders.$invoke("placeAsync", new String[] {ORDER}, new Object[] {orderTree()});
        assertEquals("PAID", map(viaAsyncMethod).get("status"));
        CompletableFuture<Object> failing = orders.$invokeAsync("plcae", new String[] {ORDER}, new Object[] {orderTree()});
        ExecutionException e = assertThrows(ExecutionException.class, () -> failing.get(5, TimeUnit.SECONDS));
        assertInstanceOf(ServiceNotFoundException.class, e.getCause());
    }

    @Test
    void overloadsAreChosenByParameterTypeNames() {
        assertEquals(5, ((Number) orders.$invoke("add", new String[] {"int", "int"}, new Object[] {2, 3})).intValue());
        assertEquals(1_000_000_000_005L,
                ((Number) orders.$invoke("add", new String[] {"long", "long"}, new Object[] {2, 3})).longValue());
        assertEquals("ab", orders.$invoke("add", new String[] {"java.lang.String", "java.lang.String"},
                new Object[] {"a", "b"}));
        // without types: fine when the name and the count pick one method, refused when they do not
        assertEquals("PAID", orders.$invoke("next", null, new Object[] {"NEW"}));
        ServiceNotFoundException ambiguous = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke("add", null, new Object[] {1, 2}));
        assertTrue(ambiguous.getMessage().contains("add(int, int), add(java.lang.String, java.lang.String), add(long, long)")
                && ambiguous.getMessage().contains("pass the parameter type names"), ambiguous.getMessage());
    }

    @Test
    void primitivesBoxedNullsAndExactNumbers() {
        assertNull(orders.$invoke("boxed", new String[] {"java.lang.Integer", "java.lang.Boolean"},
                new Object[] {null, null}));
        assertEquals(-5, ((Number) orders.$invoke("boxed", new String[] {"java.lang.Integer", "java.lang.Boolean"},
                new Object[] {5, true})).intValue());
        BadRequestException fraction = assertThrows(BadRequestException.class,
                () -> orders.$invoke("add", new String[] {"int", "int"}, new Object[] {2.5, 1}));
        assertTrue(fraction.getMessage().contains("argument 0 (int a)") && fraction.getMessage().contains("has a fraction"),
                fraction.getMessage());
        BadRequestException nullPrimitive = assertThrows(BadRequestException.class,
                () -> orders.$invoke("add", new String[] {"int", "int"}, new Object[] {1, null}));
        assertTrue(nullPrimitive.getMessage().contains("null for the primitive int"), nullPrimitive.getMessage());
        BadRequestException range = assertThrows(BadRequestException.class,
                () -> orders.$invoke("add", new String[] {"int", "int"}, new Object[] {1, 5_000_000_000L}));
        assertTrue(range.getMessage().contains("out of the range of int"), range.getMessage());
    }

    @Test
    void enumsByNameAndUnknownConstantsNamed() {
        assertEquals("SHIPPED", orders.$invoke("next", new String[] {"io.kestrel.rpc.core.fixture.orders.Status"},
                new Object[] {"PAID"}));
        BadRequestException e = assertThrows(BadRequestException.class,
                () -> orders.$invoke("next", null, new Object[] {"LOST"}));
        assertTrue(e.getMessage().contains("'LOST' is not a constant of io.kestrel.rpc.core.fixture.orders.Status; it has"
                + " [NEW, PAID, SHIPPED]"), e.getMessage());
    }

    @Test
    void bytesTravelAsBase64() {
        String reversed = (String) orders.$invoke("reversed", new String[] {"[B"},
                new Object[] {Base64.getEncoder().encodeToString(new byte[] {1, 2, 3})});
        assertEquals(List.of((byte) 3, (byte) 2, (byte) 1), toList(Base64.getDecoder().decode(reversed)));
        assertEquals("AwIB", orders.$invoke("reversed", new String[] {"byte[]"}, new Object[] {List.of(1, 2, 3)}));
    }

    private static List<Byte> toList(byte[] bytes) {
        List<Byte> out = new ArrayList<>();
        for (byte b : bytes) {
            out.add(b);
        }
        return out;
    }

    @Test
    void wrongMethodNameNamesTheServicesMethods() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke("plcae", new String[] {ORDER}, new Object[] {orderTree()}));
        assertTrue(e.getMessage().contains("has no method 'plcae'; did you mean 'place'?")
                && e.getMessage().contains("place(" + ORDER + ")"), e.getMessage());
    }

    @Test
    void wrongTypeNameNamesTheRealSignatures() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke("place", new String[] {"com.example.Ordr"}, new Object[] {orderTree()}));
        assertTrue(e.getMessage().contains("#place has no overload (com.example.Ordr); its signatures: place(" + ORDER + ")"),
                e.getMessage());
    }

    @Test
    void conversionErrorsNameTheArgumentThePathAndTheFix() {
        Map<String, Object> order = orderTree();
        Map<String, Object> customer = new LinkedHashMap<>(map(order.get("customer")));
        customer.put("age", "old");
        order.put("customer", customer);
        BadRequestException e = assertThrows(BadRequestException.class,
                () -> orders.$invoke("place", new String[] {ORDER}, new Object[] {order}));
        assertTrue(e.getMessage().contains("argument 0 (" + ORDER + " order).customer.age: expected a number (int), got"
                + " String 'old'"), e.getMessage());

        customer.remove("age");
        customer.put("nmae", "Ada");
        BadRequestException unknown = assertThrows(BadRequestException.class,
                () -> orders.$invoke("place", new String[] {ORDER}, new Object[] {order}));
        assertTrue(unknown.getMessage().contains("has no property 'nmae'") && unknown.getMessage().contains("did you mean 'name'?"),
                unknown.getMessage());
    }

    @Test
    void argumentsThatAreNotPlainTreesAreRefusedBeforeSending() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> orders.$invoke("echo", new String[] {"java.lang.Object"}, new Object[] {new Order()}));
        assertTrue(e.getMessage().contains("argument 0 of " + SERVICE + ":2.0#echo: a " + ORDER
                + " is not a plain tree value"), e.getMessage());
        IllegalArgumentException counts = assertThrows(IllegalArgumentException.class,
                () -> orders.$invoke("add", new String[] {"int", "int"}, new Object[] {1}));
        assertTrue(counts.getMessage().contains("has 2 parameter types and 1 arguments"), counts.getMessage());
    }

    @Test
    void exceptionsArriveWithTheirTypeAndMessage() {
        // this consumer has no OrderService, so it does not trust the service's own exception classes
        RemoteInvocationException declared = assertThrows(RemoteInvocationException.class,
                () -> orders.$invoke("reject", new String[] {"java.lang.String"}, new Object[] {"no stock"}));
        assertEquals("io.kestrel.rpc.core.fixture.orders.OrderRejectedException", declared.remoteClassName());
        assertEquals("rejected: no stock", declared.remoteMessage());
        IllegalStateException jdk = assertThrows(IllegalStateException.class,
                () -> orders.$invoke("crash", new String[] {"java.lang.String"}, new Object[] {"boom"}));
        assertEquals("boom", jdk.getMessage());
    }

    @Test
    void cyclicResultsAreRefusedAndChainsAreNestedMaps() {
        Map<String, Object> chain = map(orders.$invoke("loop", new String[] {"int", "boolean"}, new Object[] {3, false}));
        assertEquals(2, ((Number) map(map(chain.get("next")).get("next")).get("value")).intValue());
        RpcException e = assertThrows(RpcException.class,
                () -> orders.$invoke("loop", new String[] {"int", "boolean"}, new Object[] {3, true}));
        assertTrue(e.getMessage().contains("has no tree form for a generic caller")
                && e.getMessage().contains("the value contains itself"), e.getMessage());
    }

    @Test
    void interceptorsSeeTheRealMethod() {
        SEEN_BY_PROVIDER_INTERCEPTOR.clear();
        SEEN_BY_CLIENT_INTERCEPTOR.clear();
        ClientInterceptor client = chain -> {
            SEEN_BY_CLIENT_INTERCEPTOR.add(chain.call().methodName() + "/" + chain.call().displayName());
            return chain.proceed();
        };
        try (RpcRuntime own = RpcRuntime.builder().loadInterceptors(false).build()) {
            GenericService g = own.refer(generic("kryo").interceptor(client).build());
            g.$invoke("place", new String[] {ORDER}, new Object[] {orderTree()});
        }
        assertEquals(List.of("place/" + SERVICE + ":2.0#place"), SEEN_BY_CLIENT_INTERCEPTOR);
        assertEquals(List.of("place/place/Order"), SEEN_BY_PROVIDER_INTERCEPTOR);
    }

    @Test
    void manyThreadsCallConcurrently() throws Exception {
        int threads = 16;
        int calls = 200;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * 10_000;
                results.add(pool.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < calls; i++) {
                        Object sum = i % 2 == 0
                                ? orders.$invoke("add", new String[] {"int", "int"}, new Object[] {base, i})
                                : orders.$invokeAsync("add", new String[] {"int", "int"}, new Object[] {base, i})
                                        .get(10, TimeUnit.SECONDS);
                        if (((Number) sum).intValue() == base + i) {
                            ok++;
                        }
                    }
                    return ok;
                }));
            }
            for (Future<Integer> r : results) {
                assertEquals(calls, r.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aGenericReferenceNeedsAClassName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.generic("not a class"));
        assertTrue(e.getMessage().contains("must be a class name such as com.example.UserService, was 'not a class'"),
                e.getMessage());
        IllegalArgumentException typed = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.builder(GenericService.class).build());
        assertTrue(typed.getMessage().contains("ReferenceConfig.generic(\"com.example.UserService\")"), typed.getMessage());
    }

    @Test
    void unknownServiceIsNamed() {
        try (RpcRuntime own = RpcRuntime.builder().loadInterceptors(false).build()) {
            GenericService g = own.refer(ReferenceConfig.generic("com.example.Nope").url("127.0.0.1:" + provider.boundPort())
                    .check(false).retries(0).build());
            ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                    () -> g.$invoke("x", null, null));
            assertTrue(e.getMessage().contains("com.example.Nope"), e.getMessage());
        }
    }

    static Instant instant(Object tree) {
        return Instant.parse((String) tree);
    }

    static RemoteInvocationException remote(Throwable t) {
        return assertInstanceOf(RemoteInvocationException.class, t);
    }
}
