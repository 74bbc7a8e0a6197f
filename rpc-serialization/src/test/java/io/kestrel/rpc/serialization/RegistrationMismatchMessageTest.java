package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import io.kestrel.rpc.serialization.fixture.Device;
import io.kestrel.rpc.serialization.fixture.Impression;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 12, trap 1 at the serializer: a reader that registers other classes than the writer (none, or
 * the same in another order) gets an error naming its own optimizer and the setting to check, instead
 * of only "the bytes are corrupt" (kryo's "Encountered unregistered class ID" and fst's "unable to find
 * class for code" are named as an unregistered class number).
 */
class RegistrationMismatchMessageTest {
    /** The writer's optimizer. */
    public static final class WriterOptimizer implements SerializationOptimizer {
        @Override
        public Collection<Class<?>> getSerializableClasses() {
            return List.of(BidRequest.class, Impression.class, Device.class);
        }
    }

    /** The same classes, another order. */
    public static final class ReorderedOptimizer implements SerializationOptimizer {
        @Override
        public Collection<Class<?>> getSerializableClasses() {
            return List.of(Device.class, Impression.class, BidRequest.class);
        }
    }

    private static Serializer serializer(String name, SerializationOptimizer optimizer) {
        SerializationOptions.Builder b = SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().allowPackage(SerializationTestSupport.FIXTURE_PACKAGE));
        if (optimizer != null) {
            b.optimizer(optimizer);
        }
        return Serializations.installed().byName(name).create(b.build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fst", "fory"})
    void aReaderWithoutTheWritersOptimizerIsToldSo(String name) {
        byte[] bytes = SerializationTestSupport.write(serializer(name, new WriterOptimizer()), BidRequest.sample());
        SerializationException e = assertThrows(SerializationException.class,
                () -> SerializationTestSupport.read(serializer(name, null), bytes, BidRequest.class));
        String m = e.getMessage();
        assertTrue(m.contains("the two sides register different classes or in another order"), m);
        assertTrue(m.contains("this side has no optimizer (no classes registered)"), m);
        assertTrue(m.contains("optimizer= on <rpc:protocol>, or on <rpc:reference>"), m);
        if (!name.equals("fory")) {
            assertTrue(m.contains("The writer sent a class number this side has not registered"), m);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "fst", "fory"})
    void aReaderWithTheClassesInAnotherOrderIsToldWhichOptimizerItHas(String name) {
        byte[] bytes = SerializationTestSupport.write(serializer(name, new WriterOptimizer()), BidRequest.sample());
        Serializer reader = serializer(name, new ReorderedOptimizer());
        // each of the three fails on these bytes (kryo on an unresolved reference, fst and fory on a class mismatch);
        // none reads the numbers as other classes without noticing
        SerializationException e = assertThrows(SerializationException.class,
                () -> SerializationTestSupport.read(reader, bytes, BidRequest.class));
        assertTrue(e.getMessage().contains("the two sides register different classes or in another order"),
                e.getMessage());
        assertTrue(e.getMessage().contains("optimizer " + ReorderedOptimizer.class.getName() + " (3 classes registered)"),
                e.getMessage());
    }
}
