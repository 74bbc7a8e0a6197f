package io.kestrel.rpc.serialization.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EnginePoolTest {
    /** An engine that notices being used by two threads at once. */
    static final class Engine {
        final AtomicBoolean inUse = new AtomicBoolean();
    }

    @Test
    void anEngineGivenBackIsLentAgainAndAFullPoolDropsTheRest() {
        AtomicInteger built = new AtomicInteger();
        EnginePool<Engine> pool = new EnginePool<>(2, () -> {
            built.incrementAndGet();
            return new Engine();
        });
        Engine a = pool.obtain();
        pool.free(a);
        assertSame(a, pool.obtain(), "the idle engine is lent again");
        Engine b = pool.obtain();
        Engine c = pool.obtain();
        assertEquals(3, built.get(), "none idle: each obtain builds one");
        pool.free(a);
        pool.free(b);
        pool.free(c); // two slots: dropped
        List<Engine> idle = pool.takeIdle();
        assertEquals(2, idle.size());
        assertFalse(idle.contains(c), "the engine given back to a full pool is not kept");
        assertTrue(pool.takeIdle().isEmpty(), "takeIdle empties the pool");
    }

    @Test
    void capacityIsAPowerOfTwoAndBounded() {
        assertEquals(1, new EnginePool<>(1, Engine::new).capacity());
        assertEquals(16, new EnginePool<>(16, Engine::new).capacity());
        assertEquals(32, new EnginePool<>(17, Engine::new).capacity());
        assertThrows(IllegalArgumentException.class, () -> new EnginePool<>(0, Engine::new));
    }

    @Test
    void threadsNeverShareAnEngineAndTheIdleOnesStayWithinCapacity() throws Exception {
        AtomicInteger built = new AtomicInteger();
        EnginePool<Engine> pool = new EnginePool<>(4, () -> {
            built.incrementAndGet();
            return new Engine();
        });
        int threads = 8;
        int rounds = 200_000;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                results.add(executor.submit(() -> {
                    go.await();
                    int clashes = 0;
                    for (int i = 0; i < rounds; i++) {
                        Engine e = pool.obtain();
                        if (!e.inUse.compareAndSet(false, true)) {
                            clashes++;
                        }
                        e.inUse.set(false);
                        pool.free(e);
                    }
                    return clashes;
                }));
            }
            go.countDown();
            int clashes = 0;
            for (Future<Integer> f : results) {
                clashes += f.get(60, TimeUnit.SECONDS);
            }
            assertEquals(0, clashes, "an engine was lent to two threads at once");
        } finally {
            executor.shutdownNow();
        }
        int idle = pool.takeIdle().size();
        assertTrue(idle >= 1 && idle <= 4, "idle engines: " + idle);
        assertTrue(built.get() < threads * rounds / 100, "engines built: " + built.get() + " (the pool did not reuse)");
    }
}
