package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The duration timers of one side ({@code rpc.client.duration} or {@code rpc.server.duration}), one per
 * service, method, serialization and outcome. Looked up once per call in a map keyed by the method,
 * so a call costs one map read and one {@link Timer#record}, not a meter registration. Thread-safe.
 */
final class CallTimers {
    private static final CallOutcome[] OUTCOMES = CallOutcome.values();

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private final Tags tags;
    private final MetricsOptions options;
    private final ConcurrentMap<MethodKey, AtomicReferenceArray<Timer>> byMethod = new ConcurrentHashMap<>();

    CallTimers(MeterRegistry registry, String name, String description, Tags tags, MetricsOptions options) {
        this.tags = tags;
        this.registry = registry;
        this.name = name;
        this.description = description;
        this.options = options;
    }

    /** Records one call that took {@code nanos} and ended with {@code error} (null: ok). */
    void record(CallInfo call, Throwable error, long nanos) {
        MethodKey key = new MethodKey(call.service(), call.method(), call.serialization());
        AtomicReferenceArray<Timer> timers = byMethod.get(key);
        if (timers == null) {
            timers = byMethod.computeIfAbsent(key, k -> new AtomicReferenceArray<>(OUTCOMES.length));
        }
        CallOutcome outcome = CallOutcome.of(error);
        Timer timer = timers.get(outcome.ordinal());
        if (timer == null) {
            timer = register(key, outcome);
            timers.set(outcome.ordinal(), timer); // a race registers the same meter twice: the registry returns one
        }
        timer.record(nanos, TimeUnit.NANOSECONDS);
    }

    private Timer register(MethodKey key, CallOutcome outcome) {
        Timer.Builder b = Timer.builder(name)
                .description(description)
                .tags(tags)
                .tag(KestrelMetrics.TAG_SYSTEM, KestrelMetrics.SYSTEM)
                .tag(KestrelMetrics.TAG_SERVICE, key.service().toString())
                .tag(KestrelMetrics.TAG_METHOD, key.method().getName())
                .tag(KestrelMetrics.TAG_STATUS, outcome.tag())
                .tag(KestrelMetrics.TAG_SERIALIZATION, key.serialization() == null ? "unknown" : key.serialization())
                .publishPercentileHistogram(options.histogram());
        if (options.percentiles().length > 0) {
            b.publishPercentiles(options.percentiles());
        }
        return b.register(registry);
    }

    private record MethodKey(ServiceKey service, Method method, String serialization) {
    }
}
