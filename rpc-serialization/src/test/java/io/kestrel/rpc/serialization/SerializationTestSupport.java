package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

/** Shared helpers: the installed serializations, an allowlist for the fixture package, byte round-trips. */
final class SerializationTestSupport {
    static final String FIXTURE_PACKAGE = "io.kestrel.rpc.serialization.fixture";

    private SerializationTestSupport() {
    }

    /** Every serialization, loaded through ServiceLoader (so the services file is tested too). */
    static Stream<Serialization> all() {
        Serializations installed = Serializations.installed();
        return Stream.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory").map(installed::byName);
    }

    static SerializationOptions options() {
        return SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURE_PACKAGE))
                .build();
    }

    static Serializer create(Serialization s) {
        return s.create(options());
    }

    static byte[] write(Serializer serializer, Object value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        serializer.serialize(value, out);
        return out.toByteArray();
    }

    static Object read(Serializer serializer, byte[] bytes, Class<?> expected) {
        return serializer.deserialize(new ByteArrayInputStream(bytes), expected);
    }

    static Object roundTrip(Serializer serializer, Object value) {
        return read(serializer, write(serializer, value), value == null ? Object.class : value.getClass());
    }

    /**
     * Replaces every occurrence of class name {@code from} in {@code bytes} by {@code to} (same
     * length). Engines that mark the last character of an ASCII string (kryo sets its high bit) are
     * handled by matching all but the last character and keeping that mark.
     */
    static byte[] patchName(Serialization s, byte[] bytes, String from, String to) {
        // fory packs class names into 5/6-bit "meta strings"; the others write them as text
        return s.name().equals("fory") ? ForyNamePatch.patchName(bytes, from, to) : patchName(bytes, from, to);
    }

    static byte[] patchName(byte[] bytes, String from, String to) {
        assertEquals(from.length(), to.length(), "stand-in and target names must have the same length");
        byte[] f = from.substring(0, from.length() - 1).getBytes(StandardCharsets.US_ASCII);
        byte[] t = to.substring(0, to.length() - 1).getBytes(StandardCharsets.US_ASCII);
        byte[] result = bytes.clone();
        int hits = 0;
        for (int i = 0; i + f.length <= result.length; i++) {
            boolean match = true;
            for (int j = 0; j < f.length && match; j++) {
                match = result[i + j] == f[j];
            }
            int last = i + f.length;
            if (match && last < result.length && (result[last] & 0x7F) == from.charAt(from.length() - 1)) {
                System.arraycopy(t, 0, result, i, t.length);
                result[last] = (byte) ((result[last] & 0x80) | to.charAt(to.length() - 1));
                hits++;
            }
        }
        assertTrue(hits > 0, "stand-in name " + from + " not found in the bytes");
        return result;
    }

    static List<String> names() {
        return List.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory");
    }
}
