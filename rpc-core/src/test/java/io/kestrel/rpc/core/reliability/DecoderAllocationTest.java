package io.kestrel.rpc.core.reliability;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.TestRuntimes;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The provider decodes argument bytes from the wire with each serialization. Whatever lengths those
 * bytes claim, decoding a few hundred bytes must not allocate more than a small bound: a decoder
 * that sizes an array from a claimed length lets one tiny frame allocate GiBs (seen in the fuzz run
 * as a multi-GiB heap peak). The same seeded mutations as {@link HostileFrameFuzzTest}, decoded
 * directly, with the allocation of each decode measured on this thread.
 */
class DecoderAllocationTest {
    static final List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;
    static final int INPUTS = 20_000;
    /** Per decode of an input of at most a few hundred bytes. */
    static final long ALLOCATION_BOUND = 16L << 20;
    static final List<Class<?>> TYPES = List.of(String.class, Object.class, Payload.class, long.class, int.class);

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void decodingMutatedArgumentsAllocatesLittle(String serialization) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        ClassAllowlist allowlist = ClassAllowlist.withDefaults().trustTypesOf(EchoService.class);
        Serializer serializer = TestRuntimes.serializer(serialization, allowlist);
        HostileFrames frames = new HostileFrames(HostileFrameFuzzTest.SEED ^ serialization.hashCode(), 64 * 1024,
                new byte[] {serializer.id()}, List.of("x#y()"), validArguments(serializer));
        long worst = 0;
        String worstCase = "none";
        int over = 0;
        List<String> offenders = new ArrayList<>();
        for (int i = 0; i < INPUTS; i++) {
            byte[] input = frames.arguments();
            Class<?> type = TYPES.get(i % TYPES.size());
            long before = threads.getThreadAllocatedBytes(self);
            try {
                serializer.deserialize(new ByteArrayInputStream(input), type);
            } catch (RuntimeException | OutOfMemoryError e) {
                // refusing bad bytes is the expected outcome; only the allocation matters here
            }
            long allocated = threads.getThreadAllocatedBytes(self) - before;
            if (allocated > worst) {
                worst = allocated;
                worstCase = type.getSimpleName() + " from " + input.length + " bytes " + hex(input);
            }
            if (allocated > ALLOCATION_BOUND) {
                over++;
                if (offenders.size() < 3) {
                    offenders.add((allocated >> 20) + " MiB for " + type.getSimpleName() + " from " + hex(input));
                }
            }
        }
        System.out.printf("decoder allocation, %s: %d inputs, worst %d KiB (%s), %d over %d MiB%n", serialization,
                INPUTS, worst / 1024, worstCase, over, ALLOCATION_BOUND >> 20);
        assertTrue(over == 0, serialization + ": " + over + " decodes of small inputs allocated over "
                + (ALLOCATION_BOUND >> 20) + " MiB, e.g. " + offenders);
    }

    /** Inputs the fuzz run found (seed {@link HostileFrameFuzzTest#SEED}), replayed offline; hex. */
    static final List<String> FOUND = List.of(
            // fst, a String argument: 3 bytes made the reader allocate 1.6-2.3 GiB (bounded since 7721460)
            "fst String 000081",
            "fst String 000181",
            // java: an int[] claiming 16.7 M elements (under the filter's 16 M-element limit) in 35 bytes: 63 MiB.
            // The array limit should be the bytes left in the input (every element takes at least one byte)
            "java Object aced0005757200025b494dba5c2676eab2a5020000787000ff000200000001ff0000ff");

    @ParameterizedTest
    @FieldSource("FOUND")
    void inputsFoundByTheFuzzAllocateLittle(String found) {
        String[] parts = found.split(" ");
        Class<?> type = parts[1].equals("String") ? String.class : Object.class;
        byte[] input = HexFormat.of().parseHex(parts[2]);
        Serializer serializer = Serializations.installed().byName(parts[0]).create(SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().trustTypesOf(EchoService.class)).build());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(self);
        String outcome;
        try {
            outcome = "decoded " + serializer.deserialize(new ByteArrayInputStream(input), type);
        } catch (RuntimeException | OutOfMemoryError e) {
            outcome = e.toString();
        }
        long allocated = threads.getThreadAllocatedBytes(self) - before;
        System.out.printf("decoder allocation, %s as %s from %d bytes: %d KiB (%s)%n", parts[0], type.getSimpleName(),
                input.length, allocated / 1024, outcome.length() > 200 ? outcome.substring(0, 200) : outcome);
        assertTrue(allocated < ALLOCATION_BOUND, parts[0] + " allocated " + (allocated >> 20) + " MiB decoding "
                + input.length + " bytes as " + type.getSimpleName() + ": " + outcome);
    }

    private static List<byte[]> validArguments(Serializer s) {
        List<byte[]> valid = new ArrayList<>();
        for (Object sample : List.of("hello", "", "h\u00e9llo w\u00f6rld", 42L, 7, Payload.sample(3), List.of("a", "b"),
                Map.of("k", 1), new byte[] {1, 2, 3}, new int[] {1, 2}, new String[] {"a", "b"})) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            s.serialize(sample, out);
            valid.add(out.toByteArray());
        }
        return valid;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b, 0, Math.min(b.length, 48)) + (b.length > 48 ? "..." : "");
    }
}
