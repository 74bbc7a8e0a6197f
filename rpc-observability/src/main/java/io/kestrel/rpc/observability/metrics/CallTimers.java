package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.observability.internal.PerMethod;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The duration timers of one side ({@code rpc.client.duration} or {@code rpc.server.duration}), one per
 * service, method, serialization and outcome. Each is registered once, the first time a call of its
 * kind ends, and found again without allocating ({@link PerMethod}, then an array indexed by outcome),
 * so a call costs a map read and one {@link Timer#record}: no tags are built and no meter is looked
 * up in the registry per call. Thread-safe.
 */
final class CallTimers {
    private static final CallOutcome[] OUTCOMES = CallOutcome.values();

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final Tags tags;
    private final MetricsOptions options;
    private final PerMethod<MethodTimers> byMethod = new PerMethod<>(MethodTimers::new);

    CallTimers(MeterRegistry registry, String name, String description, Tags tags, MetricsOptions options) {
        this.tags = tags;
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.options = options;
    }

    /** Records one call that took {@code nanos} and ended with {@code error} (null: ok). */
    void record(CallInfo call, Throwable error, long nanos) {
        MethodTimers timers = byMethod.of(call);
        CallOutcome outcome = CallOutcome.of(error);
        Timer timer = timers.get(outcome.ordinal());
        if (timer == null) {
            timer = register(timers, outcome);
            timers.set(outcome.ordinal(), timer); // a race registers the same meter twice: the registry returns one
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer register(MethodTimers m, CallOutcome outcome) {
        Timer.Builder b = Timer.builder(name)
                .description(description)
                .tags(tags)
                .tag(KestrelMetrics.TAG_SYSTEM, KestrelMetrics.SYSTEM)
                .tag(KestrelMetrics.TAG_SERVICE, m.service)
                .tag(KestrelMetrics.TAG_METHOD, m.method)
                .tag(KestrelMetrics.TAG_STATUS, outcome.tag())
                .tag(KestrelMetrics.TAG_SERIALIZATION, m.serialization)
                .publishPercentileHistogram(options.histogram());
        if (options.percentiles().length > 0) {
            b.publishPercentiles(options.percentiles());
        }
        return b.register(registry);
    }

    /** The timers of one service, method and serialization, by outcome; the tag values they share. */
    private static final class MethodTimers extends AtomicReferenceArray<Timer> {
        private static final long serialVersionUID = 1L;
        final String service;
        final String method;
        final String serialization;

        MethodTimers(CallInfo call) {
            super(OUTCOMES.length);
            this.service = call.service().toString();
            this.method = call.methodName();
            this.serialization = call.serialization() == null ? "unknown" : call.serialization();
        }
    }
}
