package io.kestrel.rpc.serialization;

import static io.kestrel.rpc.serialization.SerializationTestSupport.create;
import static io.kestrel.rpc.serialization.SerializationTestSupport.read;
import static io.kestrel.rpc.serialization.SerializationTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A small stream whose length prefix claims about 2^30 elements must fail with
 * {@link SerializationException} without allocating for the claim. Each case writes a value with a
 * known count (777), finds that count's encoding in the engine's bytes and splices in the encoding
 * of a huge count. The module's tests run with {@code -Xmx256m}, so an engine that allocates for
 * the claim fails here with {@link OutOfMemoryError}.
 */
class HostileLengthTest {
    private static final int N = 777;
    private static final byte[] JSONB_777 = {0x3b, 0x09};
    private static final byte[] JSONB_2_30 = {0x48, 0x40, 0, 0, 0};

    static Stream<Arguments> cases() {
        List<Object> ints = new ArrayList<>(java.util.Collections.nCopies(N, 0));
        Map<String, String> map = new HashMap<>();
        for (int i = 0; i < N; i++) {
            map.put("k" + i, "v");
        }
        String[] strings = new String[N];
        Arrays.fill(strings, "s");
        byte[] b30 = leb128(1 << 30);
        return Stream.of(
                // kryo: unsigned varints; arrays store length + 1; non-ASCII strings store chars + 1
                // collections: count + 1 as a varint with a flag bit (0x80) and 6 value bits in the first byte
                Arguments.of("kryo", "ArrayList", ints, new byte[] {(byte) 0xCA, 0x0C}, new byte[] {(byte) 0xC1, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08}),
                Arguments.of("kryo", "HashMap", map, leb128(N + 1), b30),
                Arguments.of("kryo", "long[]", new long[N], leb128(N + 1), b30),
                Arguments.of("kryo", "String[]", strings, leb128(N + 1), b30),
                Arguments.of("kryo", "String", "é".repeat(N), new byte[] {(byte) 0xCA, 0x0C},
                        new byte[] {(byte) 0xC1, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x08}),
                // fory: varuint32; primitive arrays store their byte size; strings (bytes << 2 | coder)
                Arguments.of("fory", "ArrayList", ints, leb128(N), b30),
                Arguments.of("fory", "long[]", new long[N], leb128(N * 8), b30),
                Arguments.of("fory", "String", "a".repeat(N), leb128(N << 2), leb128(1 << 29 << 2)),
                // java: 4-byte big-endian lengths; ArrayList's size field
                Arguments.of("java", "long[]", new long[N], be32(N), be32(1 << 30)),
                Arguments.of("java", "ArrayList", ints, be32(N), be32(1 << 30)),
                // hessian2: compact int 777 = 0xcb 0x09; 'I' + 4 bytes for the huge one
                Arguments.of("hessian2", "int[]", new int[N], new byte[] {(byte) 0xcb, 0x09},
                        new byte[] {0x49, 0x40, 0, 0, 0}),
                Arguments.of("hessian2", "String[]", strings, new byte[] {(byte) 0xcb, 0x09},
                        new byte[] {0x49, 0x40, 0, 0, 0}),
                // fst: compact int: 0x80 + 2 bytes little-endian, 0x81 + 4 bytes little-endian
                Arguments.of("fst", "long[]", new long[N], new byte[] {(byte) 0x80, 0x09, 0x03},
                        new byte[] {(byte) 0x81, 0, 0, 0, 0x40}),
                Arguments.of("fst", "ArrayList", ints, new byte[] {(byte) 0x80, 0x09, 0x03},
                        new byte[] {(byte) 0x81, 0, 0, 0, 0x40}),
                Arguments.of("fst", "String[]", strings, new byte[] {(byte) 0x80, 0x09, 0x03},
                        new byte[] {(byte) 0x81, 0, 0, 0, 0x40}),
                Arguments.of("fst", "HashMap", map, new byte[] {(byte) 0x80, 0x09, 0x03},
                        new byte[] {(byte) 0x81, 0, 0, 0, 0x40}),
                Arguments.of("fst", "String", "a".repeat(N), new byte[] {(byte) 0x80, 0x09, 0x03},
                        new byte[] {(byte) 0x81, 0, 0, 0, 0x40}),
                // fastjson2 (JSONB): int 777 in the two-byte form (0x38 + high byte, low byte); 0x48 +
                // 4 bytes big-endian for the huge one. Arrays/lists: BC_ARRAY (0xa4) + count;
                // strings: BC_STR_ASCII (0x79) + length; byte[]: BC_BINARY (0x91) + length.
                // (JSONB objects and maps carry no entry count: they are read up to an end marker.)
                Arguments.of("fastjson2", "int[]", new int[N], JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "long[]", new long[N], JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "String[]", strings, JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "Object[]", new Object[N], JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "ArrayList", ints, JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "String", "a".repeat(N), JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "byte[]", new byte[N], JSONB_777, JSONB_2_30),
                Arguments.of("fastjson2", "char[]", new char[N], JSONB_777, JSONB_2_30));
    }

    /**
     * Cases that still allocate for a hostile claim (verified under -Xmx256m: {@link OutOfMemoryError}).
     * fastjson2's JSONB reader ({@code JSONReaderJSONB}, a final package-private class) returns the
     * stream's count from {@code startArray()} and its readers allocate for it at once
     * ({@code new int[count]}, {@code new long[count]}, {@code new String[count]},
     * {@code new Object[count]}, {@code new JSONArray(count)}/{@code new ArrayList(count)}) with no
     * hook in between; walking the value first with {@code skipValue()} is not an option either, as
     * it rejects values fastjson2 itself writes (symbol-encoded names: "name not support input").
     * Strings, byte[] and char[] are not affected (their reads fail before allocating).
     */
    private static final java.util.Set<String> KNOWN_UNBOUNDED =
            java.util.Set.of("fastjson2 int[]", "fastjson2 long[]", "fastjson2 String[]", "fastjson2 Object[]",
                    "fastjson2 ArrayList");

    /**
     * What makes the known gap safe by default: fastjson2 says it cannot bound claimed lengths, so
     * providers accept it only when configured to (see ProviderDispatcher); every other one says it can.
     */
    @org.junit.jupiter.api.Test
    void onlyTheKnownUnboundedSerializationDeclaresItself() {
        for (String name : Serializations.installed().names().keySet()) {
            boolean knownUnbounded = KNOWN_UNBOUNDED.stream().anyMatch(c -> c.startsWith(name + " "));
            assertEquals(!knownUnbounded, Serializations.installed().byName(name).boundsClaimedLengths(), name);
        }
    }

    /** The module's surefire configuration gives this JVM a small heap, so an allocation for a claim shows as OOM. */
    @org.junit.jupiter.api.Test
    void heapIsSmallEnoughToDetectAllocationForAClaim() {
        assertTrue(Runtime.getRuntime().maxMemory() <= 512L * 1024 * 1024,
                "run with -Xmx256m (rpc-serialization/pom.xml); max heap is " + Runtime.getRuntime().maxMemory());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void hugeClaimedLengthFailsWithoutAllocating(String name, String shape, Object value, byte[] from, byte[] to) {
        org.junit.jupiter.api.Assumptions.assumeFalse(KNOWN_UNBOUNDED.contains(name + " " + shape),
                name + " allocates for a hostile " + shape + " length claim (known, see KNOWN_UNBOUNDED)");
        Serializer serializer = create(Serializations.installed().byName(name));
        byte[] hostile = splice(write(serializer, value), from, to);
        try {
            read(serializer, hostile, Object.class);
            fail(name + " accepted a " + shape + " claiming 2^30 elements in " + hostile.length + " bytes");
        } catch (SerializationException expected) {
            assertTrue(expected.getMessage().startsWith(name + " could not deserialize"), expected.getMessage());
        } catch (OutOfMemoryError oom) {
            fail(name + " allocated for a " + shape + " claiming 2^30 elements in " + hostile.length + " bytes", oom);
        }
    }

    static byte[] splice(byte[] bytes, byte[] from, byte[] to) {
        for (int i = 0; i + from.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + from.length, from, 0, from.length)) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                out.write(bytes, 0, i);
                out.writeBytes(to);
                out.write(bytes, i + from.length, bytes.length - i - from.length);
                return out.toByteArray();
            }
        }
        throw new AssertionError("length encoding " + Arrays.toString(from) + " not found");
    }

    static byte[] leb128(int v) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while ((v & ~0x7F) != 0) {
            out.write((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        out.write(v);
        return out.toByteArray();
    }

    static byte[] be32(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
