package io.kestrel.rpc.serialization.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link PerThread}: a platform thread keeps its engine; virtual threads (JDK 21+; on an older JDK
 * the test says so and checks that every thread is a platform one) borrow from a shared pool
 * instead of building one per thread.
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
        Method startVirtual = startVirtualThread();
        if (startVirtual == null) {
            System.out.println("PerThreadTest: JDK " + Runtime.version() + " has no virtual threads; checked the platform path");
            assertTrue(!PerThread.isVirtual(Thread.currentThread()));
            return;
        }
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

    @Test
    void noMoreEnginesThanTheBoundWaitForVirtualThreads() throws Exception {
        Method startVirtual = startVirtualThread();
        if (startVirtual == null) {
            System.out.println("PerThreadTest: JDK " + Runtime.version() + " has no virtual threads; nothing pooled");
            assertTrue(!PerThread.isVirtual(Thread.currentThread()));
            return;
        }
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
