package io.kestrel.rpc.serialization.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@link PerThread}: a platform thread keeps its engine; virtual threads (JDK 21+; on an older JDK the checks run
 * in a child JVM of a JDK 21+ on this machine) borrow from a shared pool instead of building one per thread.
 */
class PerThreadTest {
    @Test
    void aPlatformThreadKeepsItsEngineUntilItIsDropped() {
        AtomicInteger built = new AtomicInteger();
        PerThread<Object> cache = new PerThread<>(() -> new Object[] {built.incrementAndGet()});
        Object first = cache.acquire();
        cache.release(first, true);
        Object again = cache.acquire();
        assertSame(first, again);
        cache.release(again, false); // e.g. it may hold part of a failed value
        Object fresh = cache.acquire();
        assertNotSame(first, fresh, "a dropped engine is not handed out again");
        cache.release(fresh, true);
        assertEquals(2, built.get());
    }

    @Test
    void virtualThreadsBorrowEnginesInsteadOfBuildingOneEach() throws Exception {
        onVirtualThreads("borrow");
    }

    @Test
    void noMoreEnginesThanTheBoundWaitForVirtualThreads() throws Exception {
        onVirtualThreads("bound");
    }

    /**
     * Runs the named check here when this JDK has virtual threads, else in a child JVM of a JDK 21+ of this machine
     * ({@code -Dkestrel.test.jdk21=<java home>}, or the newest under /usr/lib/jvm); with none, the test is reported
     * as skipped with that reason (never passed without checking).
     */
    private static void onVirtualThreads(String check) throws Exception {
        Method startVirtual = startVirtualThread();
        if (startVirtual != null) {
            run(check, startVirtual);
            return;
        }
        Path launcher = NewerJdk.find(21);
        Assumptions.assumeTrue(launcher != null, "JDK " + Runtime.version() + " has no virtual threads and no JDK 21+ was"
                + " found (set -Dkestrel.test.jdk21=<java home>)");
        Process child = new ProcessBuilder(launcher.toString(), "-cp", System.getProperty("java.class.path"),
                PerThreadTest.class.getName(), check).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, child.exitValue(), "the check '" + check + "' on " + launcher + " failed:\n" + output);
        assertTrue(output.contains("checked " + check + " on virtual threads"), output);
    }

    /** The child JVM's entry point: runs one check on this JDK's virtual threads, exits 1 on failure. */
    public static void main(String[] args) throws Exception {
        Method startVirtual = startVirtualThread();
        if (startVirtual == null) {
            System.out.println("no virtual threads on " + Runtime.version());
            System.exit(1);
        }
        try {
            run(args[0], startVirtual);
            System.out.println("checked " + args[0] + " on virtual threads (JDK " + Runtime.version() + ")");
        } catch (Throwable e) {
            e.printStackTrace(System.out);
            System.exit(1);
        }
    }

    private static void run(String check, Method startVirtual) throws Exception {
        if (check.equals("borrow")) {
            borrow(startVirtual);
        } else {
            bound(startVirtual);
        }
    }

    private static void borrow(Method startVirtual) throws Exception {
        AtomicInteger built = new AtomicInteger();
        PerThread<Object> cache = new PerThread<>(() -> new Object[] {built.incrementAndGet()}, 4);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger onVirtual = new AtomicInteger();
        for (int i = 0; i < 500; i++) {
            Thread t = (Thread) startVirtual.invoke(null, (Runnable) () -> {
                try {
                    if (PerThread.isVirtual(Thread.currentThread())) {
                        onVirtual.incrementAndGet();
                    }
                    Object engine = cache.acquire();
                    cache.release(engine, true);
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            t.join(10_000);
        }
        assertEquals(null, failure.get());
        assertEquals(500, onVirtual.get(), "every call ran on a virtual thread");
        assertEquals(1, built.get(), "500 virtual threads one after another built one engine between them");
        assertEquals(1, cache.idleForVirtualThreads());
    }

    private static void bound(Method startVirtual) throws Exception {
        PerThread<Object> cache = new PerThread<>(Object::new, 3);
        java.util.concurrent.CountDownLatch allHold = new java.util.concurrent.CountDownLatch(8);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        Thread[] threads = new Thread[8];
        for (int i = 0; i < threads.length; i++) {
            threads[i] = (Thread) startVirtual.invoke(null, (Runnable) () -> {
                Object engine = cache.acquire();
                allHold.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                cache.release(engine, true);
            });
        }
        assertTrue(allHold.await(10, java.util.concurrent.TimeUnit.SECONDS));
        go.countDown();
        for (Thread t : threads) {
            t.join(10_000);
        }
        assertEquals(3, cache.idleForVirtualThreads(), "eight in use at once, three kept afterwards");
    }

    static Method startVirtualThread() {
        try {
            return Thread.class.getMethod("startVirtualThread", Runnable.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
