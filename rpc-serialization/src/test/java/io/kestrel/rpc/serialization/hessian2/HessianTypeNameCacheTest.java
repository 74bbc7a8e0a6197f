package io.kestrel.rpc.serialization.hessian2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.caucho.hessian.io.Hessian2Output;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ClassLoadingMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hessian2 typed arrays whose type names a caller chooses: thousands of distinct names (deep, of
 * unknown classes, of refused classes) leave the factory's array cache within its bound and load no
 * class beyond the arrays of real allowed elements within the dimension limit; deeper and longer
 * names are refused with the limit named; an ordinary array still reads.
 */
class HessianTypeNameCacheTest {
    private static final String FIXTURE = "io.kestrel.rpc.serialization.fixture";
    private static final List<String> ELEMENTS = List.of("java.lang.String", "java.lang.Integer", "java.math.BigDecimal",
            FIXTURE + ".Pair", FIXTURE + ".Money");

    private final Hessian2Serializer serializer = (Hessian2Serializer) Serializations.installed().byName("hessian2")
            .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURE)).build());

    /** A fixed-length typed list ('V') of one null element, typed {@code type}. */
    private static byte[] typedArray(String type) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.writeListBegin(1, type);
        out.writeNull();
        out.flush();
        return bytes.toByteArray();
    }

    /** Reads a typed array; a refusal or an unreadable type is fine, what it leaves behind is measured. */
    private Object read(String type) throws IOException {
        try {
            return serializer.deserialize(new ByteArrayInputStream(typedArray(type)), Object.class);
        } catch (SerializationException e) {
            return e;
        }
    }

    @Test
    void distinctArrayTypeNamesLeaveTheCacheBoundedAndLoadNoClassesBeyondTheLimit() throws IOException {
        int limit = TypeNameLimits.maxArrayDimensions();
        for (String element : ELEMENTS) { // the arrays a legitimate stream may name: loaded once
            for (int d = 1; d <= limit; d++) {
                read("[".repeat(d) + element);
            }
        }
        hostileNames(0, 200); // the code paths of refusals and unknown names, loaded once
        ClassLoadingMXBean classes = ManagementFactory.getClassLoadingMXBean();
        long loadedBefore = classes.getTotalLoadedClassCount();
        int names = 3 * TypeNameLimits.nameCacheSize();
        hostileNames(200, names);
        long loaded = classes.getTotalLoadedClassCount() - loadedBefore;
        assertTrue(loaded < 50, loaded + " classes loaded by " + 3 * (names - 200) + " distinct array type names");
        assertTrue(serializer.cachedArrayTypes() <= TypeNameLimits.nameCacheSize(),
                serializer.cachedArrayTypes() + " cached array types");
        assertTrue(serializer.cachedArrayTypes() <= ELEMENTS.size() * limit + 10,
                "only arrays of resolved elements are cached: " + serializer.cachedArrayTypes());
    }

    private void hostileNames(int from, int to) throws IOException {
        int limit = TypeNameLimits.maxArrayDimensions();
        for (int i = from; i < to; i++) {
            int dimensions = 1 + i % limit;
            read("[".repeat(dimensions) + FIXTURE + ".Missing" + i); // allowed package, no such class
            read("[".repeat(dimensions) + "com.attacker.Gadget" + i); // refused by the allowlist
            read("[".repeat(limit + 1 + i % 200) + ELEMENTS.get(i % ELEMENTS.size())); // too deep
        }
    }

    @Test
    void deepAndLongNamesAreRefusedNamingTheLimitAndAnOrdinaryArrayStillReads() throws IOException {
        int limit = TypeNameLimits.maxArrayDimensions();
        Object deep = read("[".repeat(limit + 1) + "java.lang.String");
        assertTrue(deep instanceof RuntimeException e && e.getMessage().contains(limit + 1
                + " dimensions, more than the limit of " + limit), String.valueOf(deep));
        Object tooLong = read("[java.lang." + "X".repeat(TypeNameLimits.maxClassNameChars()));
        assertTrue(tooLong instanceof RuntimeException e && e.getMessage().contains(
                TypeNameLimits.MAX_CLASS_NAME_CHARS_PROPERTY), String.valueOf(tooLong));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        serializer.serialize(new String[][] {{"a", "b"}, {"c"}}, bytes);
        assertArrayEquals(new String[][] {{"a", "b"}, {"c"}},
                (String[][]) serializer.deserialize(new ByteArrayInputStream(bytes.toByteArray()), Object.class));
        assertThrows(RuntimeException.class, () -> serializer.deserialize(
                new ByteArrayInputStream(typedArray("[".repeat(limit + 1) + "int")), Object.class));
    }
}
