package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.fixture.CallerService;
import io.kestrel.rpc.core.fixture.CallerServiceImpl;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.core.fixture.shop.Order;
import io.kestrel.rpc.core.fixture.shop.OrderService;
import io.kestrel.rpc.core.fixture.shop.OrderServiceImpl;
import io.kestrel.rpc.core.fixture.shop.ShopOptimizer;
import io.kestrel.rpc.core.tls.TestTokens;
import io.kestrel.rpc.transport.Status;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the handshake tells whom, over real sockets: a provider with a kryo optimizer exports a
 * service for role "reader", one for role "admin" and an open one. A raw client writes the frames a
 * consumer writes (optional credential, then the first heartbeat with or without a query) and
 * decodes the answer: nobody is told anything unasked, a caller is told only about services it may
 * call, and a real consumer still agrees serialization and optimizer through the handshake.
 */
@Timeout(60)
class HandshakeDisclosureTest {
    private static final String READER_ONLY = CallerService.class.getName();
    private static final String ADMIN_ONLY = OrderService.class.getName();
    private static final String OPEN = EchoService.class.getName();
    private static final List<String> ALL = List.of(READER_ONLY, ADMIN_ONLY, OPEN);

    private final List<RpcRuntime> runtimes = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (int i = runtimes.size() - 1; i >= 0; i--) {
            runtimes.get(i).close();
        }
    }

    private int provider(boolean disclose) {
        return provider(disclose, true);
    }

    /** {@code restricted} false exports the reader and admin services without their roles (anyone may call). */
    private int provider(boolean disclose, boolean restricted) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().authenticator(new TestTokens())
                .serialization("kryo").optimizer(ShopOptimizer.class)
                .limits(ServerLimits.builder().discloseServices(disclose).build()).build()).build();
        runtimes.add(r);
        ServiceConfig.Builder<CallerService> reader = ServiceConfig.builder(CallerService.class, new CallerServiceImpl());
        ServiceConfig.Builder<OrderService> admin = ServiceConfig.builder(OrderService.class, new OrderServiceImpl());
        if (restricted) {
            reader.allowRole("reader");
            admin.allowRole("admin");
        }
        r.export(reader.build());
        r.export(admin.build());
        r.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        return r.boundPort();
    }

    /** One connection: the credential (when a token is given), then the first heartbeat naming {@code asked}. */
    private static Answer handshake(int port, String token, List<String> asked) throws IOException {
        try (RawClient raw = new RawClient(port)) {
            if (token != null) {
                raw.writeFrame(0x01 | 0x04, Status.CREDENTIAL.code(), 0, token.getBytes(StandardCharsets.UTF_8));
            }
            raw.writeFrame(0x07, 0, 1, asked.isEmpty() ? new byte[0] : RawClient.strings(asked));
            RawClient.Response r = raw.read();
            assertEquals(0x04, r.flags(), "a heartbeat answer");
            assertEquals(1, r.requestId(), "to heartbeat 1");
            return new Answer(r.body(), decode(r.body()));
        }
    }

    private record Answer(byte[] bytes, Map<String, Map<String, String>> services) {
        String text() {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    /** The answer body: varint count, then per service a key and varint-counted name/value pairs. */
    private static Map<String, Map<String, String>> decode(byte[] body) {
        Map<String, Map<String, String>> services = new LinkedHashMap<>();
        if (body.length == 0) {
            return services;
        }
        int[] at = {0};
        int count = readVarint(body, at);
        for (int i = 0; i < count; i++) {
            String key = readString(body, at);
            Map<String, String> attributes = new LinkedHashMap<>();
            int n = readVarint(body, at);
            for (int j = 0; j < n; j++) {
                attributes.put(readString(body, at), readString(body, at));
            }
            services.put(key, attributes);
        }
        assertEquals(body.length, at[0], "the whole body is the services");
        return services;
    }

    private static int readVarint(byte[] b, int[] at) {
        int v = 0;
        for (int shift = 0; ; shift += 7) {
            int x = b[at[0]++] & 0xff;
            v |= (x & 0x7f) << shift;
            if (x < 0x80) {
                return v;
            }
        }
    }

    private static String readString(byte[] b, int[] at) {
        int len = readVarint(b, at);
        String s = new String(b, at[0], len, StandardCharsets.UTF_8);
        at[0] += len;
        return s;
    }

    /** Nothing about any service, its serialization, optimizer or classes, in the bytes themselves. */
    private static void assertSaysNothing(Answer a) {
        assertEquals(0, a.bytes().length, "no body: " + a.services());
        for (String leak : List.of(READER_ONLY, ADMIN_ONLY, OPEN, "kryo", ShopOptimizer.class.getName(),
                Order.class.getName(), "fixture")) {
            assertFalse(a.text().contains(leak), leak + " disclosed: " + a.text());
        }
    }

    @Test
    void theFirstHeartbeatWithoutCredentialOrQueryIsToldNothing() throws IOException {
        int port = provider(false);
        assertSaysNothing(handshake(port, null, List.of()));
        assertSaysNothing(handshake(port, "mallory-token", List.of()));
    }

    @Test
    void anAnonymousCallerNamingRestrictedServicesIsToldNothingAboutThem() throws IOException {
        int port = provider(false);
        assertSaysNothing(handshake(port, null, List.of(READER_ONLY, ADMIN_ONLY, "com.example.Missing")));
        assertSaysNothing(handshake(port, "mallory-token", List.of(READER_ONLY, ADMIN_ONLY)));
        Answer open = handshake(port, null, ALL);
        assertEquals(Set.of(OPEN), open.services().keySet(), "only the service anyone may call");
        assertFalse(open.text().contains(READER_ONLY) || open.text().contains(ADMIN_ONLY), open.text());
    }

    @Test
    void anAuthenticatedCallerIsToldOnlyAboutTheServicesItsRolesMayCall() throws IOException {
        int port = provider(false);
        Answer reader = handshake(port, "alice-token", ALL);
        assertEquals(Set.of(READER_ONLY, OPEN), reader.services().keySet());
        assertFalse(reader.text().contains(ADMIN_ONLY), reader.text());
        assertEquals("kryo", reader.services().get(READER_ONLY).get("preferred-serialization"),
                "what it may call is described: " + reader.services());
        Answer admin = handshake(port, "bob-token", ALL);
        assertEquals(Set.of(ADMIN_ONLY, OPEN), admin.services().keySet());
        assertTrue(admin.services().get(ADMIN_ONLY).toString().contains("ShopOptimizer"), admin.services().toString());
        assertFalse(admin.text().contains(READER_ONLY), admin.text());
    }

    @Test
    void withoutDiscloseServicesNothingIsListedUnaskedEvenToAnAuthenticatedCaller() throws IOException {
        int port = provider(false);
        assertSaysNothing(handshake(port, "alice-token", List.of()));
        assertSaysNothing(handshake(port, "bob-token", List.of()));
    }

    @Test
    void withDiscloseServicesAnUnaskedHandshakeListsOnlyWhatTheCallerMayCall() throws IOException {
        int port = provider(true);
        assertEquals(Set.of(OPEN), handshake(port, null, List.of()).services().keySet());
        assertEquals(Set.of(READER_ONLY, OPEN), handshake(port, "alice-token", List.of()).services().keySet());
        assertEquals(Set.of(ADMIN_ONLY, OPEN), handshake(port, "bob-token", List.of()).services().keySet());
    }

    /**
     * Mutation check: the same anonymous probes against the defences switched off one at a time. With
     * {@code disclose-services} on and the services open to anyone, the unasked probe is told every service and the
     * asking probe the restricted ones, so the probes can elicit them; with the roles back, both are told only the
     * open service (the identity check hides the others); with the defaults, the unasked probe is told nothing
     * (disclosure off hides the list even of open services). There is no setting that answers before identity:
     * the identity check is taken out by exporting the services without roles.
     */
    @Test
    void eachDefenceIsWhatHidesTheServicesFromTheProbe() throws IOException {
        int exposed = provider(true, false);
        assertEquals(Set.of(READER_ONLY, ADMIN_ONLY, OPEN), handshake(exposed, null, List.of()).services().keySet(),
                "without roles and with disclose-services the unasked probe is told everything");
        assertEquals(Set.of(READER_ONLY, ADMIN_ONLY), handshake(exposed, null, List.of(READER_ONLY, ADMIN_ONLY))
                .services().keySet(), "and the asking probe the services it names");
        int identityOnly = provider(true, true);
        assertEquals(Set.of(OPEN), handshake(identityOnly, null, List.of()).services().keySet());
        assertSaysNothing(handshake(identityOnly, null, List.of(READER_ONLY, ADMIN_ONLY)));
        int disclosureOnly = provider(false, false);
        assertSaysNothing(handshake(disclosureOnly, null, List.of()));
        int defaults = provider(ServerLimits.builder().build().discloseServices(), true);
        assertSaysNothing(handshake(defaults, null, List.of()));
        assertSaysNothing(handshake(defaults, null, List.of(READER_ONLY, ADMIN_ONLY)));
    }

    @Test
    void anAuthenticatedConsumerStillAgreesSerializationAndOptimizerThroughTheHandshake() {
        int port = provider(false);
        RpcRuntime consumer = RpcRuntime.builder().build();
        runtimes.add(consumer);
        // the consumer's own default serialization is not kryo: the call works only if it adopted the provider's
        assertNotEquals("kryo", consumer.protocol().serialization());
        OrderService orders = consumer.refer(ReferenceConfig.builder(OrderService.class).url("127.0.0.1:" + port)
                .token("bob-token").timeout(Duration.ofSeconds(10)).build());
        assertEquals(Order.sample().withId("order-12"), orders.place(Order.sample()));
        // a later reference sharing the connection asks for its own service's facts
        CallerService caller = consumer.refer(ReferenceConfig.builder(CallerService.class)
                .url("127.0.0.1:" + port).token("bob-token").timeout(Duration.ofSeconds(10)).build());
        RpcException denied = assertThrows(RpcException.class, caller::caller);
        assertTrue(denied.getMessage().contains("may not call service " + READER_ONLY), denied.getMessage());
    }
}
