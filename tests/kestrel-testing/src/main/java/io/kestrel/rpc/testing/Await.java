package io.kestrel.rpc.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition, bounded: a timeout is a test failure naming what did not happen (no fixed sleeps). */
public final class Await {
    /** The bound of {@link #until(String, BooleanSupplier)}. */
    public static final Duration DEFAULT = Duration.ofSeconds(30);

    private Await() {
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            Thread.sleep(10); // polling interval of the condition, not a wait for something to happen
        }
    }

    /** As {@link #until(String, Duration, BooleanSupplier)} with {@link #DEFAULT}. */
    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, DEFAULT, condition);
    }
}
