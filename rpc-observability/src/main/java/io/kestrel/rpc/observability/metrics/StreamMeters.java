package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.StreamListener;
import io.kestrel.rpc.observability.internal.PerMethod;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The stream meters of one side: streams open now (a gauge), and messages sent and received (counters per service,
 * method and serialization, found again per stream without building tags). A stream's duration goes to the side's
 * duration timer when it ends ({@link CallTimers}), with its outcome, as OpenTelemetry's RPC conventions time a
 * streaming call. Thread-safe.
 */
final class StreamMeters {
    private final AtomicInteger open = new AtomicInteger();
    private final CallTimers durations;
    private final PerMethod<Counters> byMethod;

    /** @param names the gauge's, then the sent and received counters' names */
    StreamMeters(MeterRegistry registry, String[] names, Tags tags, CallTimers durations) {
        this.durations = durations;
        Gauge.builder(names[0], open, AtomicInteger::get)
                .description("streams open now on this side (started and not yet ended)").tags(tags).register(registry);
        this.byMethod = new PerMethod<>(call -> new Counters(registry, names, tags, call));
    }

    /** A stream starts: the listener that counts its messages and times it until it ends. */
    StreamListener started(CallInfo call, Runnable atEnd) {
        open.incrementAndGet();
        return new Counted(call, atEnd, System.nanoTime());
    }

    /** The message counters of one service, method and serialization. */
    private static final class Counters {
        final Counter sent;
        final Counter received;

        Counters(MeterRegistry registry, String[] names, Tags tags, CallInfo call) {
            Tags t = tags.and(KestrelMetrics.TAG_SYSTEM, KestrelMetrics.SYSTEM)
                    .and(KestrelMetrics.TAG_SERVICE, call.service().toString())
                    .and(KestrelMetrics.TAG_METHOD, call.methodName())
                    .and(KestrelMetrics.TAG_SERIALIZATION, call.serialization() == null ? "unknown" : call.serialization());
            this.sent = Counter.builder(names[1]).description("stream messages this side sent")
                    .tags(t).register(registry);
            this.received = Counter.builder(names[2])
                    .description("stream messages this side received").tags(t).register(registry);
        }
    }

    private final class Counted implements StreamListener {
        private final CallInfo call;
        private final Runnable atEnd;
        private final long start;
        /** Found at the first message: a consumer's serialization is known once its call was sent. */
        private volatile Counters counters;

        Counted(CallInfo call, Runnable atEnd, long start) {
            this.call = call;
            this.atEnd = atEnd;
            this.start = start;
        }

        private Counters counters() {
            Counters c = counters;
            if (c == null) {
                c = byMethod.of(call); // two threads may both look it up: they find the same counters
                counters = c;
            }
            return c;
        }

        @Override
        public void onMessageSent(Object message) {
            counters().sent.increment();
        }

        @Override
        public void onMessageReceived(Object message) {
            counters().received.increment();
        }

        @Override
        public void onEnd(Throwable error) {
            open.decrementAndGet();
            durations.record(call, error, System.nanoTime() - start);
            if (atEnd != null) {
                atEnd.run();
            }
        }
    }
}
