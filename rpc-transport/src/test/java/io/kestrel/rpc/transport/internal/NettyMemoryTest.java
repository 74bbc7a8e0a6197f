package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.util.internal.PlatformDependent;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class NettyMemoryTest {
    @Test
    void sharedArenasOnlyFromJava25AndOnlyWithoutUnsafeAndWithoutNativeAccess() {
        assertTrue(NettyMemory.freesThroughSharedArenas(25, false, false));
        assertTrue(NettyMemory.freesThroughSharedArenas(26, false, false));
        assertFalse(NettyMemory.freesThroughSharedArenas(25, true, false), "Unsafe: Netty frees with it");
        assertFalse(NettyMemory.freesThroughSharedArenas(25, false, true), "native access: Netty calls free()");
        assertFalse(NettyMemory.freesThroughSharedArenas(24, false, false), "no arena cleaner before 25");
        assertFalse(NettyMemory.freesThroughSharedArenas(17, false, false));
    }

    /** The rule against the cleaner Netty really chose in this JVM (whichever JDK runs the tests). */
    @Test
    void theRuleAgreesWithTheCleanerNettyChoseInThisJvm() throws ReflectiveOperationException {
        Field cleaner = PlatformDependent.class.getDeclaredField("CLEANER");
        cleaner.setAccessible(true);
        String chosen = cleaner.get(null).getClass().getSimpleName();
        assertEquals(chosen.equals("CleanerJava25"), NettyMemory.freesThroughSharedArenas(),
                "Netty chose " + chosen + " on Java " + Runtime.version());
    }

    @Test
    void theWarningNamesTheCostAndTheFlag() {
        String m = NettyMemory.message();
        assertTrue(m.contains("--enable-native-access=ALL-UNNAMED"), m);
        assertTrue(m.contains("handshake"), m);
        assertTrue(m.contains("io.netty.common"), m);
    }

    /**
     * A JVM of the running JDK without {@code --enable-native-access} warns exactly when it is Java 25 or later
     * (the test JVMs get the flag from the root POM, so the warning is looked for in a child JVM); with the flag
     * it never does.
     */
    @Test
    void aJvmWithoutTheFlagWarnsOnJava25AndLaterAndWithTheFlagNever() throws Exception {
        String without = runChild(List.of());
        boolean java25 = Runtime.version().feature() >= 25;
        assertTrue(without.contains("OK "), without);
        assertEquals(java25, without.contains("shared memory arena"), without);
        assertEquals(java25, without.contains("OK true"), without);
        String with = runChild(List.of(NettyMemory.NATIVE_ACCESS_FLAG));
        assertTrue(with.contains("OK false"), with);
        assertFalse(with.contains("shared memory arena"), with);
    }

    private static String runChild(List<String> flags) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(NettyMemoryMain.class.getName());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM finished within 60 s");
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, child.exitValue(), out);
            return out;
        } finally {
            child.destroyForcibly();
        }
    }

    /** Child JVM: creates an event-loop group (where the warning is logged) and prints the rule's answer. */
    public static final class NettyMemoryMain {
        public static void main(String[] args) throws Exception {
            EventLoops.group(1, "netty-memory-test").shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
            System.out.println("OK " + NettyMemory.freesThroughSharedArenas());
            System.out.flush();
            System.err.flush();
        }
    }
}
