package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import io.kestrel.rpc.serialization.fixture.Pair;
import java.lang.reflect.Array;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Array types deeper than {@link TypeNameLimits#maxArrayDimensions()} are refused by every
 * serializer with a message naming the limit and its setting, while arrays within it still work.
 */
class TypeNameBoundsTest {
    static java.util.stream.Stream<String> names() {
        return SerializationTestSupport.names().stream();
    }

    /** A Pair array of {@code dimensions} dimensions, one element per level, the innermost holding a Pair. */
    private static Object nested(int dimensions) {
        int[] lengths = new int[dimensions];
        Arrays.fill(lengths, 1);
        Object array = Array.newInstance(Pair.class, lengths);
        Object inner = array;
        for (int i = 1; i < dimensions; i++) {
            inner = Array.get(inner, 0);
        }
        Array.set(inner, 0, new Pair("a", 1));
        return array;
    }

    @ParameterizedTest
    @MethodSource("names")
    void anArrayTypeDeeperThanTheLimitIsRefusedAndOneWithinItIsRead(String name) {
        Serialization s = Serializations.installed().byName(name);
        Serializer serializer = SerializationTestSupport.create(s);
        int limit = TypeNameLimits.maxArrayDimensions();

        Object within = nested(limit);
        Object read = SerializationTestSupport.roundTrip(serializer, within);
        assertEquals(within.getClass(), read.getClass(), name);
        Object deepest = read;
        for (int i = 1; i < limit; i++) {
            deepest = Array.get(deepest, 0);
        }
        Pair p = (Pair) Array.get(deepest, 0);
        assertEquals("a", p.first, name);
        assertArrayEquals(new Pair[][] {{new Pair()}}.getClass().getName().toCharArray(),
                SerializationTestSupport.roundTrip(serializer, new Pair[][] {{new Pair()}}).getClass().getName()
                        .toCharArray(), "a plain two-dimensional array of an allowed class: " + name);

        RuntimeException e;
        try {
            byte[] tooDeep = SerializationTestSupport.write(serializer, nested(limit + 1));
            Object deep;
            try {
                deep = SerializationTestSupport.read(serializer, tooDeep, Object.class);
            } catch (RuntimeException refused) {
                deep = refused;
            }
            if (!(deep instanceof RuntimeException refused)) {
                // fastjson2 names no array type in its bytes: it reads nested lists, and loads no array class
                assertEquals("fastjson2", name, "read a too deep array: " + deep.getClass().getName());
                assertTrue(TypeNameLimits.dimensions(deep.getClass().getName()) <= limit, deep.getClass().getName());
                return;
            }
            e = refused;
        } catch (RuntimeException refusedOnWrite) {
            e = refusedOnWrite; // fory checks the classes it names when writing as well
        }
        Throwable refusal = e;
        while (!(refusal instanceof ClassNotAllowedException) && refusal.getCause() != null) {
            refusal = refusal.getCause();
        }
        assertInstanceOf(ClassNotAllowedException.class, refusal, name + ": " + e);
        assertTrue(refusal.getMessage().contains("dimensions, more than the limit of " + limit)
                && refusal.getMessage().contains(TypeNameLimits.MAX_ARRAY_DIMENSIONS_PROPERTY), refusal.getMessage());
    }
}
