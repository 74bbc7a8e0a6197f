package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Supplier;
import java.util.stream.Stream;
import javax.management.BadAttributeValueExpException;
import javax.naming.Reference;
import org.apache.commons.beanutils.BeanComparator;
import org.apache.commons.collections.functors.InvokerTransformer;
import org.codehaus.groovy.runtime.MethodClosure;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Well-known deserialization gadget classes, sent as the {@code Object} argument of
 * {@link EchoService#echoObject} through every serialization, are refused by the provider before
 * it creates them, with a {@link BadRequestException} naming the class; also on a provider whose
 * user allowed the broad packages that contain them.
 *
 * <p>Commons-collections, Groovy and beanutils are not on the test classpath: harmless stand-ins
 * with the exact class names count their instantiations in {@link GadgetTrips}. The JDK gadgets
 * are the real classes. {@code TemplatesImpl} is not used: its package is not exported from
 * {@code java.xml}, so a consumer cannot create one without extra JVM flags (its package is on the
 * deny list all the same).
 */
class GadgetRefusalTest {
    static RpcRuntime provider;
    static RpcRuntime broadProvider;
    static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(64 * 1024).build());
        broadProvider = TestRuntimes.echoProvider(TestRuntimes.loopback().payloadBytes(64 * 1024)
                .allowPackage("org.apache.commons").allowPackage("org.codehaus").allowPackage("javax").build());
        consumer = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        if (consumer != null) {
            consumer.close();
        }
        if (broadProvider != null) {
            broadProvider.close();
        }
        if (provider != null) {
            provider.close();
        }
    }

    static Stream<Arguments> serializationsAndProviders() {
        return TestRuntimes.SERIALIZATIONS.stream()
                .flatMap(s -> Stream.of(Arguments.of(s, false), Arguments.of(s, true)));
    }

    private static EchoService echo(String serialization, boolean broad) {
        return consumer.refer(TestRuntimes.echoReference(broad ? broadProvider : provider, serialization).build());
    }

    /** Serializes once on this side, so writer-side instantiation (fastjson2 makes a default instance) is done. */
    private static void writeLocally(String serialization, Object value) {
        Serializations.installed().byName(serialization).create(SerializationOptions.builder().build())
                .serialize(value, new ByteArrayOutputStream());
    }

    @ParameterizedTest(name = "{0}, broad allowlist {1}")
    @MethodSource("serializationsAndProviders")
    void gadgetStandInsAreRefusedBeforeInstantiation(String serialization, boolean broad) {
        EchoService s = echo(serialization, broad);
        for (Object gadget : List.of(new InvokerTransformer(), new MethodClosure())) {
            writeLocally(serialization, gadget);
            int trips = GadgetTrips.count();
            BadRequestException e = assertRefused(s, gadget, gadget.getClass().getName());
            assertEquals(trips, GadgetTrips.count(), "the provider instantiated " + gadget.getClass().getName()
                    + " with " + serialization + ": " + e.getMessage());
        }
        assertEquals("still served", s.echo("still served"));
    }

    @ParameterizedTest(name = "{0}, broad allowlist {1}")
    @MethodSource("serializationsAndProviders")
    void gadgetInsideAnAllowedCollectionIsNeverInstantiated(String serialization, boolean broad) {
        EchoService s = echo(serialization, broad);
        PriorityQueue<Object> queue = new PriorityQueue<>(2, new BeanComparator());
        queue.add("a");
        queue.add("b");
        List<Object> holder = new ArrayList<>(List.of("x", new InvokerTransformer()));
        for (Object value : List.of(queue, holder)) {
            writeLocally(serialization, value);
            int trips = GadgetTrips.count();
            String outcome = refusedOrTypeNotSent(s, value, value == queue ? BeanComparator.class.getName()
                    : InvokerTransformer.class.getName());
            System.out.printf("gadget: %s nested in %s with %s (broad %s): %s%n", value == queue ? "BeanComparator"
                    : "InvokerTransformer", value.getClass().getSimpleName(), serialization, broad, outcome);
            assertEquals(trips, GadgetTrips.count(), "the provider instantiated a nested gadget with " + serialization);
        }
        assertEquals("still served", s.echo("still served"));
    }

    @ParameterizedTest(name = "{0}, broad allowlist {1}")
    @MethodSource("serializationsAndProviders")
    void jdkGadgetTriggersAreRefused(String serialization, boolean broad) throws Exception {
        EchoService s = echo(serialization, broad);
        Map<String, Supplier<Object>> gadgets = new java.util.LinkedHashMap<>();
        // toString() trigger of the commons-collections chains (a Throwable, Serializable)
        gadgets.put(BadAttributeValueExpException.class.getName(), () -> new BadAttributeValueExpException("x"));
        // a JNDI reference pointing at a remote factory (never contacted: nothing here looks it up)
        gadgets.put(Reference.class.getName(), () -> new Reference("java.lang.Object", "Exploit",
                "ldap://127.0.0.1:1/Exploit"));
        URL url = new URL("http://127.0.0.1:1/urldns");
        // URLDNS: a map key whose hashCode() resolves a host name
        gadgets.put(URL.class.getName(), () -> new HashMap<>(Map.of(url, "v")));
        int refused = 0;
        for (Map.Entry<String, Supplier<Object>> g : gadgets.entrySet()) {
            Object value = g.getValue().get();
            String outcome;
            try {
                outcome = refusedOrTypeNotSent(s, value, g.getKey());
            } catch (ClassNotAllowedException e) {
                // fst refers to some JDK classes (URL) by a pre-registered number, so its serializer
                // refuses them on both sides; the consumer's own writer refuses first
                assertTrue(e.getMessage().contains(g.getKey()), e.getMessage());
                outcome = "refused already by the consumer's own writer, the same check the provider makes (" + e.getMessage() + ")";
            } catch (SerializationException e) {
                // kryo and fst read JDK-internal fields reflectively: without --add-opens for the
                // gadget's module the consumer cannot even write it, and nothing is sent
                assertTrue(e.getMessage().contains("could not serialize") && e.getMessage().contains("opens"),
                        e.getMessage());
                outcome = "not sent: the consumer's writer needs --add-opens for it";
            }
            System.out.printf("gadget: %s with %s (broad %s): %s%n", g.getKey(), serialization, broad, outcome);
            if (outcome.startsWith("refused")) {
                refused++;
            } else if (!g.getKey().equals(URL.class.getName()) && !outcome.startsWith("not sent")) {
                // a Throwable and a plain Serializable bean: a format that can write them carries their class name
                fail(g.getKey() + " with " + serialization + " was accepted: " + outcome);
            }
        }
        assertTrue(refused >= 1, "no real JDK gadget reached the provider with " + serialization);
        assertEquals("still served", s.echo("still served"));
    }

    private static BadRequestException assertRefused(EchoService s, Object value, String className) {
        try {
            Object back = s.echoObject(value);
            fail("the provider accepted " + className + " and answered " + describe(back));
            return null;
        } catch (BadRequestException e) {
            assertTrue(e.getMessage().contains(className), e.getMessage());
            return e;
        }
    }

    /**
     * Either the provider refused the call naming the class, or the format did not carry the
     * class at all (a JSON array for a PriorityQueue, a string for a URL): then nothing of that
     * type comes back.
     */
    private static String refusedOrTypeNotSent(EchoService s, Object value, String className) {
        Object back;
        try {
            back = s.echoObject(value);
        } catch (BadRequestException e) {
            assertTrue(e.getMessage().contains(className), e.getMessage());
            return "refused: " + e.getMessage();
        }
        assertTrue(!contains(back, className, 0), "the provider accepted and returned a " + className + ": "
                + describe(back));
        return "type not carried by this format; answer " + describe(back);
    }

    private static boolean contains(Object value, String className, int depth) {
        if (value == null || depth > 4) {
            return false;
        }
        if (value.getClass().getName().equals(className)) {
            return true;
        }
        if (value instanceof Iterable<?> it) {
            for (Object o : it) {
                if (contains(o, className, depth + 1)) {
                    return true;
                }
            }
        }
        if (value instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (contains(e.getKey(), className, depth + 1) || contains(e.getValue(), className, depth + 1)) {
                    return true;
                }
            }
        }
        if (value instanceof PriorityQueue<?> q && q.comparator() != null) {
            return contains(q.comparator(), className, depth + 1);
        }
        return false;
    }

    private static String describe(Object value) {
        return value == null ? "null" : value.getClass().getName() + " " + value;
    }
}
