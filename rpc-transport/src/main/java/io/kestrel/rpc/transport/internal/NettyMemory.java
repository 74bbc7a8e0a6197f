package io.kestrel.rpc.transport.internal;

import io.netty.util.internal.PlatformDependent;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per JVM, when Netty can only give direct memory back by closing a shared
 * {@code java.lang.foreign.Arena}. Netty 4.2 picks how it frees direct memory when it loads: through
 * {@code sun.misc.Unsafe} where it may use it, else through a native {@code free} call where the JVM grants
 * native access, else (JDK 25 and later) through a shared arena per allocation. Closing a shared arena
 * makes the JVM stop every thread for a handshake, so a process that allocates and frees pooled chunks
 * often (large messages) spends much of its time there: measured on JDK 25, a 50,000-character echo ran at
 * a fifth of its JDK 17 rate until the JVM got {@code --enable-native-access=ALL-UNNAMED}. Netty on JDK 24
 * and later does not use {@code Unsafe} unless told to, so that flag (or
 * {@code --enable-native-access=io.netty.common} on the module path) is the fix.
 */
public final class NettyMemory {
    private static final Logger log = LoggerFactory.getLogger(NettyMemory.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();
    // Netty decides once, when it loads; so does this (the Netty 4.1 line, which Spring Boot 3.x manages, has no
    // arena cleaner)
    private static final boolean SHARED_ARENAS = EventLoops.present("io.netty.util.internal.CleanerJava25")
            && freesThroughSharedArenas(Runtime.version().feature(), PlatformDependent.hasUnsafe(),
                    nativeAccessEnabled(PlatformDependent.class.getModule()));

    /** The flag that lets Netty free direct memory with a plain native call (class path form). */
    public static final String NATIVE_ACCESS_FLAG = "--enable-native-access=ALL-UNNAMED";

    private NettyMemory() {
    }

    /** Logs the warning the first time it is called in a JVM where {@link #freesThroughSharedArenas()} holds. */
    public static void warnIfFreeingIsExpensive() {
        if (SHARED_ARENAS && WARNED.compareAndSet(false, true)) {
            log.warn(message());
        }
    }

    /** Whether Netty in this JVM frees direct memory by closing shared arenas (a handshake with every thread). */
    public static boolean freesThroughSharedArenas() {
        return SHARED_ARENAS;
    }

    /**
     * Netty's choice, from its three inputs: shared arenas only on JDK 25 or later, and only when neither
     * {@code Unsafe} nor native access is available to it.
     */
    static boolean freesThroughSharedArenas(int javaFeature, boolean nettyHasUnsafe, boolean nativeAccess) {
        return javaFeature >= 25 && !nettyHasUnsafe && !nativeAccess;
    }

    /** The warning's text: what happens, what it costs, and the flag that ends it. */
    static String message() {
        return "Netty frees direct memory on this JVM (Java " + Runtime.version() + ") by closing a shared memory"
                + " arena, which stops every thread of the process for a handshake each time; large messages pay"
                + " most (a 50,000-character echo measured about 5x slower than with the flag). Add "
                + NATIVE_ACCESS_FLAG + " to the java command line (--enable-native-access=io.netty.common when"
                + " Netty is on the module path) so that Netty frees it with a native call instead.";
    }

    /** {@code Module.isNativeAccessEnabled()} (JDK 22+), looked up at run time; false before 22. */
    static boolean nativeAccessEnabled(Module module) {
        try {
            Method m = Module.class.getMethod("isNativeAccessEnabled");
            return (Boolean) m.invoke(module);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }
}
