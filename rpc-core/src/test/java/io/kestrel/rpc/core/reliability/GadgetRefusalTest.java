package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
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
    /** Providers by (compatible mode, broad allowlist): compatible mode is a provider-wide setting. */
    static final Map<String, RpcRuntime> PROVIDERS = new HashMap<>();
    static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        for (boolean compatible : new boolean[] {false, true}) {
            PROVIDERS.put(key(compatible, false), TestRuntimes.echoProvider(TestRuntimes.loopback()
                    .payloadBytes(64 * 1024).compatible(compatible).build()));
            PROVIDERS.put(key(compatible, true), TestRuntimes.echoProvider(TestRuntimes.loopback()
                    .payloadBytes(64 * 1024).compatible(compatible)
                    .allowPackage("org.apache.commons").allowPackage("org.codehaus").allowPackage("javax").build()));
        }
        consumer = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        if (consumer != null) {
            consumer.close();
        }
        PROVIDERS.values().forEach(RpcRuntime::close);
    }

    private static String key(boolean compatible, boolean broad) {
        return compatible + "/" + broad;
    }

    static Stream<Arguments> serializationsAndProviders() {
        return TestRuntimes.SERIALIZATIONS.stream()
                .flatMap(s -> Stream.of(Arguments.of(s, false), Arguments.of(s, true)));
    }

    private static EchoService echo(String serialization, boolean broad) {
        RpcRuntime provider = PROVIDERS.get(key(TestRuntimes.compatible(serialization), broad));
        return consumer.refer(TestRuntimes.echoReference(provider, serialization).build());
    }

    /**
     * Serializes once on this side, so writer-side instantiation (fastjson2 makes a default instance) is
     * done before counting. A writer that refuses the class (fory) is asserted by the call itself.
     */
    private static void writeLocally(String serialization, Object value) {
        try {
            TestRuntimes.serializer(serialization, ClassAllowlist.withDefaults()).serialize(value, new ByteArrayOutputStream());
        } catch (SerializationException refusedByTheWriter) {
            // see assertOutcome
        }
    }

    @ParameterizedTest(name = "{0}, broad allowlist {1}")
    @MethodSource("serializationsAndProviders")
    void gadgetStandInsAreRefusedBeforeInstantiation(String serialization, boolean broad) {
        EchoService s = echo(serialization, broad);
        for (Object gadget : List.of(new InvokerTransformer(), new MethodClosure())) {
            writeLocally(serialization, gadget);
            int trips = GadgetTrips.count();
            assertOutcome(s, serialization, broad, gadget.getClass().getName(), gadget);
            assertEquals(trips, GadgetTrips.count(), "the provider instantiated " + gadget.getClass().getName()
                    + " with " + serialization);
        }
        assertEquals("still served", s.echo("still served"));
    }

    /** What happened to a gadget sent as the argument of {@code echoObject}. */
    enum Outcome {
        /** The provider refused the call with a BadRequestException naming the class; nothing was created. */
        REFUSED_BY_PROVIDER,
        /**
         * The consumer's own writer refused the class, so no byte was sent: fory keeps its own list of
         * known gadgets and checks it when writing too; fst refers to some JDK classes, URL among them, by
         * a pre-registered number and applies the allowlist to them on both sides. That the reader
         * refuses such bytes when an attacker crafts them is proven per serialization, fory included, by
         * {@code SerializationSecurityTest.knownGadgetNamesAreRefused} in rpc-serialization.
         */
        REFUSED_BY_WRITER,
        /**
         * The format does not carry the class at all (a PriorityQueue's comparator, a URL written as a
         * string): the provider got only allowed types, and nothing of that type came back.
         */
        NOT_CARRIED
    }

    /**
     * Every outcome that is not {@link Outcome#REFUSED_BY_PROVIDER}, by "serialization gadget"; each
     * one is asserted exactly (for the plain and the broad allowlist), so a format that starts carrying
     * a class, or stops refusing it, fails here and has to be looked at.
     */
    static final Map<String, Outcome> NOT_REFUSED_BY_PROVIDER = Map.of(
            "kryo BeanComparator", Outcome.NOT_CARRIED,
            "hessian2 BeanComparator", Outcome.NOT_CARRIED,
            "fastjson2 BeanComparator", Outcome.NOT_CARRIED,
            "fst URL", Outcome.REFUSED_BY_WRITER,
            "fastjson2 URL", Outcome.NOT_CARRIED);

    static Outcome expected(String serialization, String gadget) {
        if (serialization.equals("fory")) {
            // fory (both modes) checks every class when writing as well: its own gadget list, unregistered
            // classes, and the allowlist, so the consumer never sends any of these
            return Outcome.REFUSED_BY_WRITER;
        }
        return NOT_REFUSED_BY_PROVIDER.getOrDefault(serialization + " " + gadget, Outcome.REFUSED_BY_PROVIDER);
    }

    @ParameterizedTest(name = "{0}, broad allowlist {1}")
    @MethodSource("serializationsAndProviders")
    void gadgetInsideAnAllowedCollectionIsNeverInstantiated(String serialization, boolean broad) {
        EchoService s = echo(serialization, broad);
        PriorityQueue<Object> queue = new PriorityQueue<>(2, new BeanComparator());
        queue.add("a");
        queue.add("b");
        List<Object> holder = new ArrayList<>(List.of("x", new InvokerTransformer()));
        Map<String, Object> gadgets = new java.util.LinkedHashMap<>();
        gadgets.put(BeanComparator.class.getName(), queue);
        gadgets.put(InvokerTransformer.class.getName(), holder);
        for (Map.Entry<String, Object> g : gadgets.entrySet()) {
            writeLocally(serialization, g.getValue());
            int trips = GadgetTrips.count();
            assertOutcome(s, serialization, broad, g.getKey(), g.getValue());
            assertEquals(trips, GadgetTrips.count(), "the provider instantiated a nested gadget with " + serialization);
        }
        assertEquals("still served", s.echo("still served"));
    }

    /**
     * Real JDK gadget triggers. The test JVM opens {@code javax.naming} and {@code javax.management}
     * (rpc-core's surefire configuration) only so that this test's consumer can write them with kryo
     * and fst, as an attacker crafting bytes could; the provider's refusal does not depend on it.
     */
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
        for (Map.Entry<String, Supplier<Object>> g : gadgets.entrySet()) {
            assertOutcome(s, serialization, broad, g.getKey(), g.getValue().get());
        }
        assertEquals("still served", s.echo("still served"));
    }

    private static void assertOutcome(EchoService s, String serialization, boolean broad, String className, Object value) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        Outcome expected = expected(TestRuntimes.name(serialization), simple);
        Outcome actual;
        String detail;
        try {
            Object back = s.echoObject(value);
            actual = Outcome.NOT_CARRIED;
            detail = "answer " + describe(back);
            assertTrue(!contains(back, className, 0), "the provider accepted and returned a " + className + ": " + detail);
        } catch (BadRequestException e) {
            actual = Outcome.REFUSED_BY_PROVIDER;
            detail = e.getMessage();
            assertTrue(e.getMessage().contains("Refused to deserialize class " + className), e.getMessage());
        } catch (ClassNotAllowedException e) {
            actual = Outcome.REFUSED_BY_WRITER;
            detail = e.getMessage();
            assertTrue(e.getMessage().contains("Refused to deserialize class " + className), e.getMessage());
        } catch (SerializationException e) {
            actual = Outcome.REFUSED_BY_WRITER;
            detail = e.getMessage();
            assertTrue(e.getMessage().startsWith(TestRuntimes.name(serialization) + " could not serialize")
                    && e.getMessage().contains(className), e.getMessage());
        }
        System.out.printf("gadget: %s with %s (broad %s): %s: %s%n", simple, serialization, broad, actual, detail);
        assertEquals(expected, actual, className + " with " + serialization + " (broad allowlist " + broad + "): " + detail);
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
