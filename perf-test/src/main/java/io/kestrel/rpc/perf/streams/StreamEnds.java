package io.kestrel.rpc.perf.streams;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Waits for the ends of a workload's streams. */
final class StreamEnds {
    private StreamEnds() {
    }

    /**
     * Waits (at most {@code timeout} in all) until every stream ended with {@code each} messages.
     *
     * @return the messages of all streams
     * @throws Exception the first stream's failure, a {@link TimeoutException}, or an {@link IllegalStateException}
     *     for a stream that ended short
     */
    static long sum(List<CompletableFuture<Long>> ends, int each, Duration timeout, String what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        long total = 0;
        for (CompletableFuture<Long> end : ends) {
            long n;
            try {
                n = end.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new TimeoutException(what + ": " + ends.size() + " streams of " + each
                        + " messages did not end within " + timeout.toSeconds() + " s");
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception ex ? ex : e;
            }
            if (n != each) {
                throw new IllegalStateException(what + ": a stream ended after " + n + " of " + each + " messages");
            }
            total += n;
        }
        return total;
    }
}
