package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.StreamListener;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The streams of one streaming method on one side, for the console's Calls page: how many are open now, and the
 * messages they received (in) and sent (out) since the runtime started. Each stream's duration and outcome go to the
 * method's {@link MethodWindow} when it ends, as a call's do. Thread-safe.
 */
final class StreamCounts {
    final AtomicInteger open = new AtomicInteger();
    final AtomicLong in = new AtomicLong();
    final AtomicLong out = new AtomicLong();

    /** A stream of {@code call} starts: counts it until it ends, then records it in {@code window}. */
    void started(CallInfo call, MethodWindow window) {
        open.incrementAndGet();
        long start = System.nanoTime();
        call.addStreamListener(new StreamListener() {
            @Override
            public void onMessageSent(Object message) {
                out.incrementAndGet();
            }

            @Override
            public void onMessageReceived(Object message) {
                in.incrementAndGet();
            }

            @Override
            public void onEnd(Throwable error) {
                open.decrementAndGet();
                window.record((System.nanoTime() - start) / 1000, CallOutcome.of(error) != CallOutcome.OK);
            }
        });
    }
}
