package io.kestrel.rpc.interop.dubbo.registry;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition, bounded: a timeout is a test failure naming what did not happen. */
final class Poll {
    static final Duration DEFAULT = Duration.ofSeconds(30);

    private Poll() {
    }

    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + DEFAULT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + DEFAULT.toSeconds() + " s waiting for: " + what);
            }
            Thread.sleep(20); // polling interval of the condition, not a wait for something to happen
        }
    }
}
