package io.kestrel.rpc.console;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waiting on a condition, bounded: a timeout is a test failure naming what did not happen. */
final class Poll {
    private Poll() {
    }

    static void until(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 15 s waiting for: " + what);
            }
            Thread.sleep(10); // polling interval of the condition, not a wait for something to happen
        }
    }
}
