package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Live per-method figures for the console: two interceptors (consumer and provider side) that time every
 * call into a {@link MethodWindow} per side, service and method. At most {@value #DEFAULT_MAX_METHODS} methods
 * are tracked (system property {@value #MAX_METHODS_PROPERTY}); calls of further methods are counted as
 * untracked, and methods idle for a whole window make room. A stream counts as one call, timed until it ends;
 * a streaming method's row also shows its open streams and the messages in and out ({@link StreamCounts}).
 */
final class CallStats {
    static final String MAX_METHODS_PROPERTY = "kestrel.rpc.console.maxMethods";
    static final int DEFAULT_MAX_METHODS = 2000;
    /** Outermost but tracing's (-3000) and metrics' (-2500): limit refusals count as errors. */
    static final int ORDER = -2400;

    private final long windowMillis;
    private final LongSupplier clock;
    private final int maxMethods = Integer.getInteger(MAX_METHODS_PROPERTY, DEFAULT_MAX_METHODS);
    private final Map<Key, MethodWindow> windows = new ConcurrentHashMap<>();
    private final AtomicLong untracked = new AtomicLong();
    /** Streaming methods only; at most as many as methods are tracked. */
    private final Map<Key, StreamCounts> streams = new ConcurrentHashMap<>();

    CallStats(long windowMillis, LongSupplier clock) {
        this.windowMillis = windowMillis;
        this.clock = clock;
    }

    /** The method object itself (hashing it is cheap), so a call builds no string; its signature is made once. */
    record Key(String side, String service, Method method) {
    }

    private final Map<Method, String> signatures = new ConcurrentHashMap<>();

    ClientInterceptor clientInterceptor() {
        return new ClientInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                return streamed("consumer", chain.call()) ? chain.proceed()
                        : timed("consumer", chain.call(), chain.proceed());
            }

            @Override
            public int order() {
                return ORDER;
            }

            @Override
            public String name() {
                return "console call figures";
            }
        };
    }

    ServerInterceptor serverInterceptor() {
        return new ServerInterceptor() {
            @Override
            public CompletableFuture<Object> intercept(Chain chain) {
                return streamed("provider", chain.call()) ? chain.proceed()
                        : timed("provider", chain.call(), chain.proceed());
            }

            @Override
            public int order() {
                return ORDER;
            }

            @Override
            public String name() {
                return "console call figures";
            }
        };
    }

    /**
     * For a stream: counts it, with a listener registered before the interceptor proceeds (to see every message),
     * and returns true; false for an ordinary call.
     */
    private boolean streamed(String side, CallInfo call) {
        if (!call.isStream()) {
            return false;
        }
        Key key = new Key(side, call.service().toString(), call.method());
        MethodWindow w = window(key);
        StreamCounts s = w == null ? null : streams.get(key);
        if (w != null && s == null && streams.size() < maxMethods) {
            s = streams.computeIfAbsent(key, k -> new StreamCounts());
        }
        if (s == null) {
            untracked.incrementAndGet();
        } else {
            s.started(call, w);
        }
        return true;
    }

    private CompletableFuture<Object> timed(String side, CallInfo call, CompletableFuture<Object> result) {
        long start = System.nanoTime();
        MethodWindow w = window(new Key(side, call.service().toString(), call.method()));
        if (w == null) {
            untracked.incrementAndGet();
            return result;
        }
        return result.whenComplete((v, e) -> w.record((System.nanoTime() - start) / 1000,
                CallOutcome.of(e) != CallOutcome.OK));
    }

    private MethodWindow window(Key key) {
        MethodWindow w = windows.get(key);
        if (w != null) {
            return w;
        }
        if (windows.size() >= maxMethods) {
            long now = clock.getAsLong();
            windows.entrySet().removeIf(e -> e.getValue().idle(now));
            if (windows.size() >= maxMethods) {
                return null;
            }
        }
        return windows.computeIfAbsent(key, k -> new MethodWindow(windowMillis, clock.getAsLong()));
    }

    private String signatureOf(Method m) {
        return signatures.computeIfAbsent(m, CallStats::signature);
    }

    /** {@code name(SimpleType, ...)}: tells overloads apart. */
    static String signature(Method m) {
        StringBuilder b = new StringBuilder(m.getName()).append('(');
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            b.append(i == 0 ? "" : ", ").append(types[i].getSimpleName());
        }
        return b.append(')').toString();
    }

    /** Moves recorded calls into their time slots (called every second). */
    void tick() {
        long now = clock.getAsLong();
        windows.values().forEach(w -> w.drain(now));
    }

    /** The figures of every method, sorted by side, service and method. */
    Map<String, Object> toJson() {
        long now = clock.getAsLong();
        List<Map<String, Object>> rows = new ArrayList<>();
        Comparator<Key> order = Comparator.comparing(Key::side).thenComparing(Key::service)
                .thenComparing(k -> signatureOf(k.method()));
        windows.entrySet().stream().sorted(Map.Entry.comparingByKey(order)).forEach(e -> {
                    MethodWindow.Figures f = e.getValue().figures(now);
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("side", e.getKey().side());
                    row.put("service", e.getKey().service());
                    row.put("method", signatureOf(e.getKey().method()));
                    row.put("calls", f.calls());
                    row.put("errors", f.errors());
                    row.put("ratePerSecond", round(f.ratePerSecond()));
                    row.put("errorRate", round(f.errorRate()));
                    row.put("p50Millis", round(f.p50Millis()));
                    row.put("p90Millis", round(f.p90Millis()));
                    row.put("p99Millis", round(f.p99Millis()));
                    row.put("maxMillis", round(f.maxMillis()));
                    StreamCounts s = streams.get(e.getKey());
                    if (s != null) {
                        row.put("openStreams", s.open.get());
                        row.put("messagesIn", s.in.get());
                        row.put("messagesOut", s.out.get());
                    }
                    rows.add(row);
                });
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("windowSeconds", windowMillis / 1000);
        out.put("methods", rows);
        out.put("untrackedCalls", untracked.get());
        return out;
    }

    private static double round(double d) {
        return Math.round(d * 1000) / 1000.0;
    }
}
