package io.kestrel.rpc.perf.soak;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Provider side of {@link SoakService}: delayed answers come from one daemon timer thread. Delays
 * are capped at 10 s. {@link #close()} stops the timer (answers still pending then are never sent).
 */
public final class SoakServiceImpl implements SoakService, AutoCloseable {
    static final int MAX_DELAY_MILLIS = 10_000;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "soak-service-timer");
        t.setDaemon(true);
        return t;
    });

    @Override
    public CompletableFuture<Boolean> existsLater(long id, int delayMillis) {
        boolean exists = (id & 1) == 0;
        if (delayMillis <= 0) {
            return CompletableFuture.completedFuture(exists);
        }
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        timer.schedule(() -> answer.complete(exists), Math.min(delayMillis, MAX_DELAY_MILLIS), TimeUnit.MILLISECONDS);
        return answer;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
