package io.kestrel.rpc.interop.dubbo;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds, failing with its description after a timeout (no fixed sleeps). */
final class Poll {
    private Poll() {
    }

    static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for: " + what);
            }
            Thread.sleep(10);
        }
    }
}
