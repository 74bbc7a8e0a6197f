package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.demo.DemoOptimizer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The well-behaved client of the per-port soak: once a second it calls {@code echo} on a long-lived reference
 * and, on a runtime of its own, on a fresh connection (each call on its own thread, so a hung call does not
 * delay the next). Every call is counted in the phase it started in ({@link #phase}), as served (the right
 * answer) or failed (with the first failure kept).
 */
final class SteadyClient implements AutoCloseable {
    /** A phase's figures: calls started, calls served, the first failure ("" if none). */
    record Counts(int calls, int served, String firstFailure) {
        @Override
        public String toString() {
            return served + "/" + calls;
        }
    }

    private final ReferenceConfig<BenchmarkService> config;
    private final Duration timeout;
    private final RpcRuntime runtime = RpcRuntime.builder().build();
    private final BenchmarkService longLived;
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService callers = Executors.newCachedThreadPool();
    private final Map<String, AtomicInteger[]> counts = new ConcurrentHashMap<>();
    private final Map<String, AtomicReference<String>> failures = new ConcurrentHashMap<>();
    private volatile String phase = "before";
    private final AtomicInteger seq = new AtomicInteger();

    /** A client of the provider's {@code protocol} ("native": fory, "dubbo": hessian2) port. */
    SteadyClient(String protocol, int port, Duration timeout) {
        this.timeout = timeout;
        String url = "127.0.0.1:" + port;
        ReferenceConfig.Builder<BenchmarkService> b = ReferenceConfig.builder(BenchmarkService.class).url(url)
                .timeout(timeout).retries(0).check(false); // a provider slow to accept at first is a failed call
        config = protocol.equals("native") ? b.serialization("fory").optimizer(DemoOptimizer.class).build()
                : b.protocol(ProtocolConfig.DUBBO).serialization("hessian2").build();
        longLived = runtime.refer(config);
    }

    /** Starts calling, in phase "before". */
    void start() {
        ticker.scheduleAtFixedRate(() -> {
            String now = phase;
            callers.execute(() -> call(now, longLived, null));
            callers.execute(() -> {
                try (RpcRuntime fresh = RpcRuntime.builder().build()) {
                    call(now, null, fresh);
                }
            });
        }, 0, 1, TimeUnit.SECONDS);
    }

    /** Calls started from now on count in {@code name}. */
    void phase(String name) {
        phase = name;
    }

    Counts counts(String name) {
        AtomicInteger[] c = counts.get(name);
        AtomicReference<String> f = failures.get(name);
        return c == null ? new Counts(0, 0, "") : new Counts(c[0].get(), c[1].get(), f == null ? "" : f.get());
    }

    private void call(String in, BenchmarkService ref, RpcRuntime fresh) {
        AtomicInteger[] c = counts.computeIfAbsent(in, k -> new AtomicInteger[] {new AtomicInteger(),
                new AtomicInteger()});
        c[0].incrementAndGet();
        String text = "steady-" + seq.incrementAndGet();
        try {
            BenchmarkService target = ref != null ? ref : fresh.refer(config);
            String answer = target.echo(text);
            if (text.equals(answer)) {
                c[1].incrementAndGet();
            } else {
                fail(in, (ref != null ? "long-lived" : "fresh") + ": wrong answer");
            }
        } catch (RuntimeException e) {
            fail(in, (ref != null ? "long-lived: " : "fresh: ") + e);
        }
    }

    private void fail(String in, String what) {
        failures.computeIfAbsent(in, k -> new AtomicReference<>("")).compareAndSet("",
                what.length() > 300 ? what.substring(0, 300) + "..." : what);
    }

    /** Stops calling; calls still running get at most their timeout plus 5 s to finish. */
    @Override
    public void close() {
        ticker.shutdownNow();
        callers.shutdown();
        try {
            callers.awaitTermination(timeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        callers.shutdownNow();
        runtime.close();
    }
}
