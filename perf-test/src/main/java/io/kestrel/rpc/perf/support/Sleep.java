package io.kestrel.rpc.perf.support;

import java.util.concurrent.TimeUnit;

/** Waiting for a point in time while the load runs, waking at least once a second. */
public final class Sleep {
    private Sleep() {
    }

    /**
     * Sleeps until {@link System#nanoTime()} reaches {@code deadlineNanos}, in steps of at most a
     * second; {@code eachStep} runs before every step (progress output, or nothing).
     */
    public static void until(long deadlineNanos, Runnable eachStep) throws InterruptedException {
        long now;
        while ((now = System.nanoTime()) < deadlineNanos) {
            eachStep.run();
            TimeUnit.NANOSECONDS.sleep(Math.min(deadlineNanos - now, TimeUnit.SECONDS.toNanos(1)));
        }
    }
}
