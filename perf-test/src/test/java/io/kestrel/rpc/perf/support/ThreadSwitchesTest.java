package io.kestrel.rpc.perf.support;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** {@link ThreadSwitches} sums Linux's per-thread switch counters over a process's threads. */
class ThreadSwitchesTest {
    @Test
    void anotherThreadsParkingIsCountedAsItsVoluntarySwitches() throws Exception {
        ThreadSwitches.Counts before = ThreadSwitches.self();
        assertNotNull(before, "this test runs on Linux, where /proc/<pid>/task is there");
        CountDownLatch parked = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread parker = new Thread(() -> {
            for (int i = 0; i < 200; i++) {
                LockSupport.parkNanos(50_000); // each park gives the CPU up: one voluntary switch
            }
            parked.countDown();
            try {
                done.await(10, TimeUnit.SECONDS); // alive while it is read: an exited thread's counts are gone
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        parker.start();
        try {
            assertTrue(parked.await(10, TimeUnit.SECONDS));
            long voluntary = ThreadSwitches.self().minus(before).voluntary();
            assertTrue(voluntary >= 200, "200 parks of another thread, counted: " + voluntary);
            ThreadSwitches.Counts whileAlive = ThreadSwitches.self();
            done.countDown();
            parker.join(10_000);
            ThreadSwitches.Counts afterExit = ThreadSwitches.self();
            assertTrue(afterExit.minus(whileAlive).voluntary() >= 0, "an exited thread drops out, never counts back");
        } finally {
            done.countDown();
            parker.join(10_000);
        }
    }
}
