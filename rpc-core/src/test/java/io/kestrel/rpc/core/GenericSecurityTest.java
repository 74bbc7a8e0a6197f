package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.generic.GenericService;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.SerializerIds;
import io.kestrel.rpc.core.fixture.orders.Address;
import io.kestrel.rpc.core.fixture.orders.Circle;
import io.kestrel.rpc.core.fixture.orders.GadgetFlags;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.internal.generic.GenericMethod;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two shapes of Apache Dubbo's generic-invoke CVEs, against a real provider over a real socket. Most
 * requests are hand-made frames (an attacker does not use our consumer, which refuses them before sending):
 * CVE-2021-30179, caller-supplied class names ("class" keys, type names) leading to instantiation; and
 * CVE-2023-23638, building a type outside the allowlist through nested or polymorphic fields, or switching
 * the serialization of a call. After each, {@code Gadget}'s static initialiser and constructor have not run.
 */
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
class GenericSecurityTest {
    static final String GADGET = "io.kestrel.rpc.core.fixture.orders.Gadget";
    static final String JNDI_REF = "org.apache.xbean.naming.context.ContextUtil$ReadOnlyBinding";
    static final String HOLDER = "io.kestrel.rpc.core.fixture.orders.Holder";
    private static RpcRuntime provider;
    private static GenericOrders fixture;
    private static GenericService orders;
    /** The attacker's serializer: it writes any class. */
    private static Serializer attacker;

    @BeforeAll
    static void start() {
        fixture = new GenericOrders(Duration.ofSeconds(5));
        provider = fixture.provider;
        orders = fixture.orders;
        attacker = TestRuntimes.serializer("fory", ClassAllowlist.withDefaults().allowPackage("io.kestrel.rpc.core.fixture"));
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    @AfterEach
    void noGadgetWasInitialisedOrBuilt() {
        assertFalse(GadgetFlags.INITIALISED.get(), "Gadget's static initialiser ran");
        assertFalse(GadgetFlags.CONSTRUCTED.get(), "a Gadget was constructed");
    }

    /** Sends a generic call as raw bytes, serialized by the attacker, and returns the provider's answer. */
    private static RawClient.Response raw(int serializationId, String method, String[] types, Object[] args)
            throws Exception {
        try (RawClient client = new RawClient(provider.boundPort())) {
            client.writeRequest(7, serializationId, 1, GenericMethod.descriptor(ServiceKey.of(OrderService.class)),
                    RawClient.genericArguments(attacker, method, types, args));
            return client.read();
        }
    }

    private static void assertRefused(RawClient.Response answer, String... parts) {
        assertEquals(40, answer.status(), "BAD_REQUEST expected: " + (answer.status() == 20 ? "OK" : answer.message()));
        for (String part : parts) {
            assertTrue(answer.message().contains(part), answer.message());
        }
    }

    // CVE-2021-30179: the caller names the class to build

    @Test
    void aClassKeyForAnObjectParameterIsRefusedByTheProvider() throws Exception {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("class", GADGET);
        payload.put("command", "calc");
        assertRefused(raw(SerializerIds.FORY, "echo", new String[] {"java.lang.Object"}, new Object[] {payload}),
                "argument 0 (java.lang.Object value)", "the key 'class' names a class (String '" + GADGET + "')",
                "never creates a class the caller names");
    }

    @Test
    void aJndiClassKeyNestedInABeanFieldIsRefused() throws Exception {
        Map<String, Object> holder = new LinkedHashMap<>();
        holder.put("label", "x");
        holder.put("payload", Map.of("class", JNDI_REF, "name", "ldap://attacker/obj"));
        assertRefused(raw(SerializerIds.FORY, "describe", new String[] {HOLDER}, new Object[] {holder}),
                ".payload: the key 'class' names a class (String '" + JNDI_REF + "')");
    }

    @Test
    void fastjsonAndJacksonStyleTypeKeysAreRefused() throws Exception {
        for (String key : new String[] {"@type", "@class", "$type"}) {
            Map<String, Object> address = new LinkedHashMap<>();
            address.put(key, GADGET);
            address.put("city", "x");
            Map<String, Object> customer = Map.of("name", "Ada", "address", address);
            assertRefused(raw(SerializerIds.FORY, "place", new String[] {"io.kestrel.rpc.core.fixture.orders.Order"},
                    new Object[] {Map.of("customer", customer)}), ".customer.address: the key '" + key + "' names a class");
        }
    }

    @Test
    void aParameterTypeNamingAGadgetIsNeverLoaded() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> orders.$invoke("echo", new String[] {GADGET}, new Object[] {Map.of("command", "calc")}));
        assertTrue(e.getMessage().contains("#echo has no overload (" + GADGET + "); its signatures: echo(java.lang.Object)"),
                e.getMessage());
    }

    @Test
    void ourConsumerRefusesClassKeysBeforeSending() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> orders.$invoke("echo", new String[] {"java.lang.Object"}, new Object[] {Map.of("class", GADGET)}));
        assertTrue(e.getMessage().contains("the key 'class' names a class"), e.getMessage());
    }

    // CVE-2023-23638: a type outside the allowlist reached through nested or polymorphic fields

    @Test
    void anAbstractFieldIsNeverFilledWithASubclassTheCallerPicks() {
        BadRequestException e = assertThrows(BadRequestException.class, () -> orders.$invoke("describe",
                new String[] {HOLDER}, new Object[] {Map.of("label", "x", "shape", Map.of("radius", 2))}));
        assertTrue(e.getMessage().contains(".shape: the declared type io.kestrel.rpc.core.fixture.orders.Shape is an"
                + " abstract class; generic invocation creates only the concrete classes a signature declares"), e.getMessage());
        BadRequestException parameter = assertThrows(BadRequestException.class, () -> orders.$invoke("shapeName",
                new String[] {"io.kestrel.rpc.core.fixture.orders.Shape"}, new Object[] {Map.of("radius", 2)}));
        assertTrue(parameter.getMessage().contains("is an abstract class"), parameter.getMessage());
    }

    @Test
    void anInterfaceTypedFieldOrParameterIsRefused() {
        BadRequestException field = assertThrows(BadRequestException.class, () -> orders.$invoke("describe",
                new String[] {HOLDER}, new Object[] {Map.of("label", "x", "extra", Map.of("x", 1))}));
        assertTrue(field.getMessage().contains(".extra: the declared type java.io.Serializable is an interface"),
                field.getMessage());
        BadRequestException parameter = assertThrows(BadRequestException.class, () -> orders.$invoke("serializable",
                new String[] {"java.io.Serializable"}, new Object[] {"text"}));
        assertTrue(parameter.getMessage().contains("java.io.Serializable is an interface"), parameter.getMessage());
    }

    @Test
    void anObjectFieldKeepsThePlainTreeAndBuildsNothing() {
        String described = (String) orders.$invoke("describe", new String[] {HOLDER},
                new Object[] {Map.of("label", "x", "payload", Map.of("command", "calc"))});
        assertTrue(described.startsWith("x:java.util.") && described.contains("Map"), described);
    }

    @Test
    void aClassOutsideTheAllowlistInsideTheTreeIsRefusedByTheDecoder() throws Exception {
        // Circle extends Shape but no signature reaches it: the provider's fory refuses it before loading it
        assertRefused(raw(SerializerIds.FORY, "echo", new String[] {"java.lang.Object"},
                new Object[] {Map.of("shape", new Circle())}), "io.kestrel.rpc.core.fixture.orders.Circle",
                "nothing was instantiated");
    }

    @Test
    void anAllowedObjectThatIsNotAPlainTreeIsRefused() throws Exception {
        assertRefused(raw(SerializerIds.FORY, "echo", new String[] {"java.lang.Object"},
                new Object[] {new Address("Lyon", "69001")}), "a io.kestrel.rpc.core.fixture.orders.Address is not a plain"
                + " tree value");
    }

    @Test
    void aGenericCallCannotSwitchToAnotherSerialization() throws Exception {
        assertRefused(raw(SerializerIds.JAVA, "echo", new String[] {"java.lang.Object"}, new Object[] {"x"}),
                "was not exported with serialization java");
        try (RpcRuntime own = RpcRuntime.builder().loadInterceptors(false).build()) {
            NoProviderException e = assertThrows(NoProviderException.class, () -> own.refer(ReferenceConfig.generic(
                    OrderService.class.getName()).url("127.0.0.1:" + provider.boundPort()).serialization("java").build()));
            assertTrue(e.getMessage().contains("does not accept serialization java"), e.getMessage());
        }
    }
}
