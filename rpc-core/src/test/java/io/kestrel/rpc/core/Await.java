package io.kestrel.rpc.core;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition, bounded: a timeout is a test failure naming what did not happen. */
public final class Await {
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

    public static void until(String what, BooleanSupplier condition) throws InterruptedException {
        until(what, Duration.ofSeconds(15), condition);
    }
}
