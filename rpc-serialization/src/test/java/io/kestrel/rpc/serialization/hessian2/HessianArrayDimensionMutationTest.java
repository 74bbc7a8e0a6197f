package io.kestrel.rpc.serialization.hessian2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.caucho.hessian.io.Hessian2Output;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Mutation check for the array dimension limit ({@code -Dkestrel.rpc.serialization.maxArrayDimensions}), the
 * defence against issue 34's metaspace attack (hessian2 typed arrays naming ever deeper array types, each
 * dimension a class created for good): the same stream of {@value #DEEPEST} array types of String makes one array
 * class and cached deserializer per dimension with the limit out of reach, and none past the default limit.
 * Counted as hessian2's cached array deserializers, one per array class it created (the JVM's loaded-class count
 * does not include array classes). The limit is read once when {@link TypeNameLimits} loads, so the comparison
 * runs in two child JVMs rather than by switching it here.
 */
class HessianArrayDimensionMutationTest {
    private static final int DEEPEST = 200;

    @Test
    void theDimensionLimitIsWhatStopsArrayClassesLoading() throws Exception {
        long bounded = arrayTypesMade(null);
        long unbounded = arrayTypesMade("-D" + TypeNameLimits.MAX_ARRAY_DIMENSIONS_PROPERTY + "=255");
        int beyondDefault = DEEPEST - TypeNameLimits.DEFAULT_MAX_ARRAY_DIMENSIONS;
        assertEquals(0, bounded, "default limit: array types made past it");
        assertTrue(unbounded >= beyondDefault, "limit out of reach: " + unbounded + " array types made");
        System.out.printf("array dimensions %d..%d of String: %d array types made with the default limit, %d with it"
                + " out of reach%n", TypeNameLimits.DEFAULT_MAX_ARRAY_DIMENSIONS + 1, DEEPEST, bounded, unbounded);
    }

    private static long arrayTypesMade(String option) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = option == null
                ? new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                        HessianArrayDimensionMutationTest.class.getName())
                : new ProcessBuilder(java, option, "-cp", System.getProperty("java.class.path"),
                        HessianArrayDimensionMutationTest.class.getName());
        Process child = builder.redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, child.exitValue(), output);
        String line = output.lines().filter(l -> l.startsWith("made=")).findFirst().orElseThrow(
                () -> new AssertionError("no result: " + output));
        return Long.parseLong(line.substring("made=".length()));
    }

    /** The attack, after a warm-up of the paths it takes: typed arrays of String, ever deeper. */
    public static void main(String[] args) throws IOException {
        Hessian2Serializer hessian = (Hessian2Serializer) Serializations.installed().byName("hessian2")
                .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults()).build());
        int limit = TypeNameLimits.maxArrayDimensions();
        for (int d = 1; d <= TypeNameLimits.DEFAULT_MAX_ARRAY_DIMENSIONS; d++) {
            read(hessian, d);
        }
        read(hessian, limit + 1); // the refusal's path
        int before = hessian.cachedArrayTypes();
        for (int d = TypeNameLimits.DEFAULT_MAX_ARRAY_DIMENSIONS + 1; d <= DEEPEST; d++) {
            read(hessian, d);
        }
        System.out.println("made=" + (hessian.cachedArrayTypes() - before));
    }

    private static void read(Serializer hessian, int dimensions) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.writeListBegin(1, "[".repeat(dimensions) + "java.lang.String");
        out.writeNull();
        out.flush();
        try {
            hessian.deserialize(new ByteArrayInputStream(bytes.toByteArray()), Object.class);
        } catch (SerializationException refused) {
            // a refusal is the defence at work; what the reads loaded is measured
        }
    }
}
