package io.kestrel.rpc.testing;

import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when Netty reports a leaked buffer ("LEAK: ByteBuf.release() was not called ...") while it
 * runs, instead of leaving the report in a log nobody reads. Listens on the buffers' leak detector (set at
 * class load, so it works however late it is installed); after each test it fails on leaks already reported,
 * and after the class it collects garbage and allocates a little, so leaks of the class's last buffers are
 * found too. Needs {@code -Dio.netty.leakDetection.level=paranoid} (the root POM's {@code test.jvm.args}) to
 * see every buffer. Registered for every test class of every module whose tests depend on this kit: this jar
 * lists it in {@code META-INF/services/org.junit.jupiter.api.extension.Extension}, and the root POM's surefire
 * configuration turns on JUnit's extension auto-detection.
 */
public final class NettyLeakCheck implements BeforeAllCallback, AfterEachCallback, AfterAllCallback {
    private static final Queue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static volatile boolean applied;

    static {
        leakDetector().setLeakListener((type, records) -> LEAKS.add(type + " leaked" + (records.isEmpty()
                ? " (no access records: run with -Dio.netty.leakDetection.level=paranoid)" : ":" + records)));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        applied = true;
    }

    /** Whether this check runs around the current test class (a test that it is registered: auto-detection works). */
    public static boolean applied() {
        return applied;
    }

    @Override
    public void afterEach(ExtensionContext context) {
        failOnLeaks(context);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        findLeaks();
        failOnLeaks(context);
    }

    /**
     * Has the garbage collector find unreleased buffers and the detector report them (two rounds at most). Skipped
     * when the detector tracks no buffer at all (every one allocated was released, or Netty was not used): then
     * none can leak, and a class pays no collection (up to a second or more on a busy machine).
     */
    public static void findLeaks() {
        if (trackedBuffers() == 0) {
            return;
        }
        // a leaked buffer is reported when the garbage collector has found it and a later allocation is tracked
        for (int round = 0; round < 2 && LEAKS.isEmpty(); round++) {
            System.gc();
            LockSupport.parkNanos(50_000_000);
            for (int i = 0; i < 64; i++) {
                ByteBufAllocator.DEFAULT.buffer(8).release();
                Unpooled.buffer(8).release();
            }
        }
    }

    /** Buffers the leak detector tracks now (allocated, not yet released or found leaked); -1 when unknown. */
    private static int trackedBuffers() {
        try {
            Field f = ResourceLeakDetector.class.getDeclaredField("allLeaks");
            f.setAccessible(true);
            return ((java.util.Set<?>) f.get(leakDetector())).size();
        } catch (ReflectiveOperationException | RuntimeException e) {
            return -1; // another Netty version: always look
        }
    }

    /** Takes the leaks reported so far. */
    public static List<String> takeLeaks() {
        List<String> leaks = new ArrayList<>();
        String leak;
        while ((leak = LEAKS.poll()) != null) {
            leaks.add(leak);
        }
        return leaks;
    }

    private static void failOnLeaks(ExtensionContext context) {
        List<String> leaks = takeLeaks();
        if (!leaks.isEmpty()) {
            fail("Netty reported " + leaks.size() + " leaked buffer(s) during or before " + context.getDisplayName()
                    + "; the first:\n" + leaks.get(0));
        }
    }

    @SuppressWarnings("unchecked")
    private static ResourceLeakDetector<?> leakDetector() {
        try {
            Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
            f.setAccessible(true);
            return (ResourceLeakDetector<?>) f.get(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Netty's buffer leak detector is not where this Netty version was"
                    + " expected to keep it (AbstractByteBuf.leakDetector); update NettyLeakCheck", e);
        }
    }
}
