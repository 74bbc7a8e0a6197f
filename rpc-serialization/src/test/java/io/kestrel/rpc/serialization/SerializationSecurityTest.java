package io.kestrel.rpc.serialization;

import static io.kestrel.rpc.serialization.SerializationTestSupport.create;
import static io.kestrel.rpc.serialization.SerializationTestSupport.patchName;
import static io.kestrel.rpc.serialization.SerializationTestSupport.read;
import static io.kestrel.rpc.serialization.SerializationTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import io.kestrel.rpc.serialization.fixture.ForbiddenIn;
import io.kestrel.rpc.serialization.fixture.GadgetStandInFiftyEig;
import io.kestrel.rpc.serialization.fixture.Pair;
import io.kestrel.rpc.serialization.forbidden.ForbiddenProbe;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every serialization refuses classes outside the allowlist before loading them, and turns
 * malformed input into {@link SerializationException}. Refused streams are made by writing an
 * allowed stand-in class and patching its name in the bytes, so the forbidden class is never touched
 * by the test itself.
 */
class SerializationSecurityTest {
    private static final String STAND_IN = ForbiddenIn.class.getName();
    private static final String GADGET_STAND_IN = GadgetStandInFiftyEig.class.getName();
    private static final List<String> GADGETS = List.of(
            "org.apache.commons.collections.functors.InvokerTransformer",
            "com.sun.org.apache.xalan.internal.xsltc.trax.TemplatesImpl");

    static Stream<Serialization> all() {
        return SerializationTestSupport.all();
    }

    @AfterEach
    void forbiddenClassWasNeverInitializedOrInstantiated() {
        assertFalse(ForbiddenProbe.INITIALIZED.get(), "the forbidden class's static initializer ran");
        assertEquals(0, ForbiddenProbe.INSTANCES.get(), "the forbidden class was instantiated");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void classOutsideAllowlistIsRefusedBeforeLoading(Serialization s) {
        Serializer serializer = create(s);
        byte[] bytes = patchName(s, write(serializer, new ForbiddenIn()), STAND_IN, ForbiddenProbe.FORBIDDEN_CLASS);
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> read(serializer, bytes, Object.class));
        assertTrue(e.getMessage().contains(ForbiddenProbe.FORBIDDEN_CLASS), e.getMessage());
        assertTrue(e.getMessage().contains("allowed-packages=\"io.kestrel.rpc.serialization.forbidden\""), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void refusedClassNestedInAnAllowedGraphIsRefused(Serialization s) {
        Serializer serializer = create(s);
        List<Object> list = new ArrayList<>(List.of("ok", new Pair("a", new ForbiddenIn())));
        byte[] bytes = patchName(s, write(serializer, list), STAND_IN, ForbiddenProbe.FORBIDDEN_CLASS);
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> read(serializer, bytes, Object.class));
        assertTrue(e.getMessage().contains(ForbiddenProbe.FORBIDDEN_CLASS), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void arrayOfRefusedClassIsRefused(Serialization s) {
        Serializer serializer = create(s);
        byte[] bytes = patchName(s, write(serializer, new Pair(new ForbiddenIn[] {new ForbiddenIn()}, null)),
                STAND_IN, ForbiddenProbe.FORBIDDEN_CLASS);
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> read(serializer, bytes, Object.class));
        assertTrue(e.getMessage().contains(ForbiddenProbe.FORBIDDEN_CLASS), e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void knownGadgetNamesAreRefused(Serialization s) {
        Serializer serializer = create(s);
        byte[] original = write(serializer, new Pair(new GadgetStandInFiftyEig(), null));
        for (String gadget : GADGETS) {
            byte[] bytes = patchName(s, original, GADGET_STAND_IN, gadget);
            ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> read(serializer, bytes, Object.class),
                    s.name() + " did not refuse " + gadget);
            assertTrue(e.getMessage().contains(gadget) && e.getMessage().contains("known deserialization gadget"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void truncatedInputFailsWithSerializationException(Serialization s) {
        Serializer serializer = create(s);
        byte[] full = write(serializer, BidRequest.sample());
        for (int cut : new int[] {0, 1, full.length / 3, full.length / 2, full.length - 1}) {
            byte[] truncated = Arrays.copyOf(full, cut);
            SerializationException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                    () -> assertThrows(SerializationException.class, () -> read(serializer, truncated, BidRequest.class),
                            s.name() + " accepted " + cut + " of " + full.length + " bytes"));
            assertTrue(e.getMessage().startsWith(s.name() + " could not deserialize"), e.getMessage());
            assertTrue(e.getCause() != null, "cause kept");
        }
    }

    /**
     * Random bytes either decode to some value (some formats have one-byte values) or fail with
     * {@link SerializationException}; never another exception type and never a hang.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void garbageFailsWithSerializationExceptionAndNeverHangs(Serialization s) {
        Serializer serializer = create(s);
        Random random = new Random(20250101L);
        int failures = 0;
        for (int i = 0; i < 200; i++) {
            byte[] garbage = new byte[1 + random.nextInt(200)];
            random.nextBytes(garbage);
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(10), () -> read(serializer, garbage, Object.class));
            } catch (SerializationException expected) {
                failures++;
            } catch (RuntimeException | Error other) {
                fail(s.name() + " threw " + other + " for garbage " + Arrays.toString(garbage), other);
            }
        }
        assertTrue(failures > 100, s.name() + " rejected only " + failures + " of 200 garbage inputs");
        // and the serializer still works afterwards (pooled engines were not poisoned)
        assertEquals(BidRequest.sample(), read(serializer, write(serializer, BidRequest.sample()), BidRequest.class));
    }
}
