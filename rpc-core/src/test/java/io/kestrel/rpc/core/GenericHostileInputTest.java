package io.kestrel.rpc.core;

import static io.kestrel.rpc.core.fixture.SharedReferences.bomb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.OrderServiceImpl;
import io.kestrel.rpc.core.internal.generic.GenericLimits;
import io.kestrel.rpc.core.internal.generic.GenericMethod;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hostile generic calls of issue 34 against a real provider with default limits over real sockets, sent as
 * hand-made frames (our consumer would not send them): a list that holds the same list twice, forty levels deep
 * (3 * 2^40 nodes if followed, a few hundred bytes on the wire); numbers whose exponent no target type can hold.
 * Each is answered at once with a short error, and a well-behaved client on another connection is served
 * throughout.
 */
@org.junit.jupiter.api.Timeout(value = 120, unit = TimeUnit.SECONDS)
class GenericHostileInputTest {
    private static final String[] STRINGS = {"java.lang.String", "java.lang.String"};
    private static RpcRuntime provider;
    private static GenericOrders fixture;
    private static GenericService orders;
    private static Serializer attacker;

    @BeforeAll
    static void start() {
        fixture = new GenericOrders(Duration.ofSeconds(10));
        provider = fixture.provider;
        orders = fixture.orders;
        attacker = TestRuntimes.serializer("fory", ClassAllowlist.withDefaults());
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    /** The frame of a generic call of {@code service}, serialized by the attacker. */
    static byte[] genericFrame(long requestId, ServiceKey service, int timeoutMillis, String method, String[] types,
            Object[] args) {
        // each frame defines its method reference: frames may go on fresh connections or one
        return RawClient.requestFrame(requestId, SerializerIds.FORY, (int) requestId, GenericMethod.descriptor(service),
                timeoutMillis, RawClient.genericArguments(attacker, method, types, args));
    }

    /** Sends one frame on a fresh connection and returns the answer. */
    private static RawClient.Response answer(int port, byte[] frame) throws Exception {
        try (RawClient raw = new RawClient(port)) {
            raw.writeRaw(frame);
            return raw.read(); // within the socket timeout of 5 s
        }
    }

    @Test
    void theSharedReferenceBombIsSmallOnTheWire() {
        byte[] frame = genericFrame(1, ServiceKey.of(OrderService.class), 5000, "add", STRINGS, new Object[] {bomb(40), "y"});
        assertTrue(frame.length < 2048, "the attack is " + frame.length + " bytes");
    }

    @Test
    void twoHundredSharedReferenceBombsAreRefusedWhileAWellBehavedClientIsServedThroughout() throws Exception {
        int connections = 4;
        int perConnection = 50;
        AtomicBoolean attacking = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(connections + 1);
        try {
            Future<?> client = pool.submit(() -> {
                // another connection: a typed consumer of the same service
                try (RpcRuntime own = RpcRuntime.builder().loadInterceptors(false).build()) {
                    OrderService typed = own.refer(ReferenceConfig.builder(OrderService.class)
                            .url("127.0.0.1:" + provider.boundPort()).timeout(Duration.ofSeconds(5)).build());
                    int i = 0;
                    do {
                        try {
                            assertEquals(i + 1, typed.add(i, 1));
                            served.incrementAndGet();
                        } catch (Throwable t) {
                            failures.add(t);
                        }
                        i++;
                    } while (attacking.get() || i < 20);
                }
                return null;
            });
            List<Future<List<RawClient.Response>>> attacks = new ArrayList<>();
            for (int c = 0; c < connections; c++) {
                attacks.add(pool.submit(() -> {
                    try (RawClient raw = new RawClient(provider.boundPort())) {
                        ByteArrayOutputStream all = new ByteArrayOutputStream();
                        for (int i = 1; i <= perConnection; i++) {
                            all.writeBytes(genericFrame(i, ServiceKey.of(OrderService.class), 60_000, "add", STRINGS,
                                    new Object[] {bomb(40), "y"}));
                        }
                        raw.writeRaw(all.toByteArray()); // all at once: 50 calls in flight on this connection
                        List<RawClient.Response> answers = new ArrayList<>();
                        for (int i = 0; i < perConnection; i++) {
                            answers.add(raw.read()); // within the socket timeout of 5 s each
                        }
                        return answers;
                    }
                }));
            }
            int refused = 0;
            for (Future<List<RawClient.Response>> attack : attacks) {
                for (RawClient.Response answer : attack.get(60, TimeUnit.SECONDS)) {
                    if (answer.status() == 100) {
                        continue; // server busy: refused before running, fine too
                    }
                    assertEquals(40, answer.status(), answer.status() == 20 ? "OK" : answer.message());
                    assertTrue(answer.message().contains("the call's trees have more than "
                            + GenericLimits.DEFAULT_MAX_NODES + " nodes"), answer.message());
                    assertTrue(answer.message().length() < 1000, answer.message());
                    refused++;
                }
            }
            assertTrue(refused > 0, "at least one bomb reached the tree walk and was refused by the node budget");
            attacking.set(false);
            client.get(60, TimeUnit.SECONDS);
        } finally {
            attacking.set(false);
            pool.shutdownNow();
        }
        assertTrue(failures.isEmpty(), "the well-behaved client failed: " + failures);
        assertTrue(served.get() >= 20, "served " + served.get());
    }

    @Test
    void anExponentNoLongOrIntCanHoldIsRefusedBeforeAnyArithmetic() {
        for (String type : new String[] {"long", "int"}) {
            for (String number : new String[] {"1e100000000", "1e10000000", "-1E+2147483647"}) {
                BadRequestException e = assertThrows(BadRequestException.class, () -> orders.$invoke("add",
                        new String[] {type, type}, new Object[] {number, 1}), type + " " + number);
                assertTrue(e.getMessage().contains("argument 0 (" + type + " "), e.getMessage());
                assertTrue(e.getMessage().contains("is larger than a number for " + type + " may be: at most "
                        + GenericLimits.DEFAULT_MAX_NUMBER_DIGITS + " characters, digits and decimal exponent"),
                        e.getMessage());
                assertTrue(e.getMessage().length() < 600, e.getMessage().length() + " characters");
            }
        }
    }

    @Test
    void aSmallExponentIsAnOrdinaryNumberAndOneBeyondTheTypeIsOutOfRangeWithoutExpandingIt() {
        assertEquals(10_000_001, ((Number) orders.$invoke("add", new String[] {"int", "int"},
                new Object[] {"1e7", 1})).intValue());
        BadRequestException e = assertThrows(BadRequestException.class, () -> orders.$invoke("add",
                new String[] {"int", "int"}, new Object[] {"1e900", 1}));
        assertTrue(e.getMessage().contains("String '1e900' is out of the range of int"), e.getMessage());
        BadRequestException fraction = assertThrows(BadRequestException.class, () -> orders.$invoke("add",
                new String[] {"long", "long"}, new Object[] {"1e-900", 1}));
        assertTrue(fraction.getMessage().contains("has a fraction"), fraction.getMessage());
    }

    @Test
    void aHugeNumberIsDescribedByItsSizeNotEchoed() {
        BadRequestException big = assertThrows(BadRequestException.class, () -> orders.$invoke("add",
                new String[] {"long", "long"}, new Object[] {BigInteger.ONE.shiftLeft(70_000), 1}));
        assertTrue(big.getMessage().contains("BigInteger of 70001 bits is larger than a number for long may be"),
                big.getMessage());
        String digits = "9".repeat(100_000);
        BadRequestException text = assertThrows(BadRequestException.class, () -> orders.$invoke("add",
                new String[] {"long", "long"}, new Object[] {digits, 1}));
        assertTrue(text.getMessage().contains("a numeric string of 100000 characters"), text.getMessage());
        assertTrue(text.getMessage().length() < 600, text.getMessage().length() + " characters");
    }

    @Test
    void aLongStringIsQuotedShortInTheError() throws Exception {
        String name = "n".repeat(200_000);
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke(name, null, new Object[0]));
        assertTrue(e.getMessage().contains("(200000 characters)"), e.getMessage().length() + " characters");
        assertTrue(e.getMessage().length() < 2000, e.getMessage().length() + " characters");
        BadRequestException value = assertThrows(BadRequestException.class, () -> orders.$invoke("next",
                new String[] {"io.kestrel.rpc.core.fixture.orders.Status"}, new Object[] {name}));
        assertTrue(value.getMessage().length() < 2000, value.getMessage().length() + " characters");
    }

    @Test
    void moreNodesThanTheBudgetAreRefusedNamingTheSetting() throws Exception {
        List<Object> wide = new ArrayList<>();
        for (int i = 0; i < GenericLimits.DEFAULT_MAX_NODES; i++) {
            wide.add(i);
        }
        RawClient.Response answer = answer(provider.boundPort(), genericFrame(3, ServiceKey.of(OrderService.class),
                5000, "echo", new String[] {"java.lang.Object"}, new Object[] {wide}));
        assertEquals(40, answer.status(), answer.status() == 20 ? "OK" : answer.message());
        assertTrue(answer.message().contains("argument 0 (java.lang.Object value)[99999]: the call's trees have more"
                + " than 100000 nodes"), answer.message());
        assertTrue(answer.message().contains("-D" + GenericLimits.MAX_NODES_PROPERTY), answer.message());
        wide.remove(0); // one node fewer: the list and its 99,999 elements fit
        assertEquals(wide.size(), ((List<?>) orders.$invoke("echo", new String[] {"java.lang.Object"},
                new Object[] {wide})).size());
    }

    @Test
    void aListThatContainsItselfIsRefused() throws Exception {
        List<Object> cyclic = new ArrayList<>();
        cyclic.add("a");
        cyclic.add(cyclic);
        RawClient.Response answer = answer(provider.boundPort(), genericFrame(4, ServiceKey.of(OrderService.class),
                5000, "echo", new String[] {"java.lang.Object"}, new Object[] {cyclic}));
        assertEquals(40, answer.status(), answer.status() == 20 ? "OK" : answer.message());
        assertTrue(answer.message().contains("[1]: the value contains itself"), answer.message());
    }

    @Test
    void theCallsDeadlineEndsAWalkTheBudgetWouldAllow() throws Exception {
        System.setProperty(GenericLimits.MAX_NODES_PROPERTY, Long.toString(Long.MAX_VALUE));
        RpcRuntime unlimited;
        try {
            unlimited = RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization("fory").build())
                    .loadInterceptors(false).build();
            unlimited.export(ServiceConfig.builder(OrderService.class, new OrderServiceImpl()).build());
        } finally {
            System.clearProperty(GenericLimits.MAX_NODES_PROPERTY);
        }
        try (unlimited) {
            // the check counts the 3 * 2^40 nodes without walking them again; echo's result is then written out in full
            RawClient.Response answer = answer(unlimited.boundPort(), genericFrame(5, ServiceKey.of(OrderService.class),
                    300, "echo", new String[] {"java.lang.Object"}, new Object[] {bomb(40)}));
            assertEquals(31, answer.status(), answer.status() == 20 ? "OK" : answer.message());
            assertTrue(answer.message().contains("the caller's deadline passed while walking the trees of the generic"
                    + " call, after "), answer.message());
            long nodes = Long.parseLong(answer.message().replaceAll(".*, after (\\d+) nodes.*", "$1"));
            assertTrue(nodes > 0 && nodes < 3 * (1L << 40), "stopped during the walk: " + nodes);
        }
    }
}
