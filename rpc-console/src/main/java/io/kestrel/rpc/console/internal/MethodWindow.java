package io.kestrel.rpc.console.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The calls of one method on one side over a sliding window: latencies in an HdrHistogram {@link Recorder}
 * (lock-free for the calling threads), drained into {@value #SLOTS} slots of a ring, each covering a sixth of
 * the window; figures are read over the slots still inside the window. Memory: at most {@value #SLOTS}
 * histograms of two significant digits (about 10 KB each), allocated only for slots that saw calls.
 */
final class MethodWindow {
    static final int SLOTS = 6;
    /** Longer calls are recorded as this long. */
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    private final Recorder recorder = new Recorder(HIGHEST_MICROS, 2);
    private final AtomicLong newErrors = new AtomicLong();
    private final long slotMillis;
    private final long createdMillis;
    private final Histogram[] slots = new Histogram[SLOTS];
    private final long[] slotErrors = new long[SLOTS];
    private final long[] slotEpoch = new long[SLOTS];
    private Histogram interval;

    MethodWindow(long windowMillis, long nowMillis) {
        this.slotMillis = Math.max(1, windowMillis / SLOTS);
        this.createdMillis = nowMillis;
        java.util.Arrays.fill(slotEpoch, -1);
    }

    /** Called on the calling thread (or where its future completed). */
    void record(long micros, boolean error) {
        recorder.recordValue(Math.max(1, Math.min(micros, HIGHEST_MICROS)));
        if (error) {
            newErrors.incrementAndGet();
        }
    }

    /** Moves what was recorded since the last drain into the slot of {@code nowMillis}. */
    synchronized void drain(long nowMillis) {
        interval = recorder.getIntervalHistogram(interval);
        long errors = newErrors.getAndSet(0);
        long epoch = nowMillis / slotMillis;
        int i = (int) (epoch % SLOTS);
        if (slotEpoch[i] != epoch) {
            if (slots[i] != null) {
                slots[i].reset();
            }
            slotErrors[i] = 0;
            slotEpoch[i] = epoch;
        }
        if (interval.getTotalCount() > 0) {
            if (slots[i] == null) {
                slots[i] = new Histogram(HIGHEST_MICROS, 2);
            }
            slots[i].add(interval);
        }
        slotErrors[i] += errors;
    }

    /** The figures over the window ending now. */
    synchronized Figures figures(long nowMillis) {
        drain(nowMillis);
        long epoch = nowMillis / slotMillis;
        Histogram sum = new Histogram(HIGHEST_MICROS, 2);
        long errors = 0;
        for (int i = 0; i < SLOTS; i++) {
            if (slotEpoch[i] > epoch - SLOTS) {
                if (slots[i] != null) {
                    sum.add(slots[i]);
                }
                errors += slotErrors[i];
            }
        }
        // the window covers the last SLOTS-1 whole slots and the current one so far; less while young
        long covered = Math.min((SLOTS - 1) * slotMillis + nowMillis % slotMillis, nowMillis - createdMillis);
        double seconds = Math.max(1.0, covered / 1000.0);
        long calls = sum.getTotalCount();
        return new Figures(calls, errors, calls / seconds, calls == 0 ? 0 : (double) errors / calls,
                millis(sum.getValueAtPercentile(50)), millis(sum.getValueAtPercentile(90)),
                millis(sum.getValueAtPercentile(99)), millis(sum.getMaxValue()));
    }

    /** Whether nothing was recorded within the window (the entry may be dropped). */
    synchronized boolean idle(long nowMillis) {
        return figures(nowMillis).calls() == 0 && nowMillis - createdMillis > SLOTS * slotMillis;
    }

    private static double millis(long micros) {
        return micros / 1000.0;
    }

    /** Calls and errors in the window, calls per second, the share of errors, latency percentiles in ms. */
    record Figures(long calls, long errors, double ratePerSecond, double errorRate, double p50Millis,
            double p90Millis, double p99Millis, double maxMillis) {
    }
}
