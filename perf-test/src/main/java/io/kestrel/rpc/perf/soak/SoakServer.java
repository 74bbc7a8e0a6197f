package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.SerializationVariant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The provider of the soak mode, run in the server JVM by
 * {@link io.kestrel.rpc.perf.server.PerfServerMain} for system names {@code soak-<serialization>}:
 * one runtime on 127.0.0.1 ({@link DirectRpc}) exporting {@link BenchmarkService} and
 * {@link SoakService}, with {@link DemoOptimizer} and the {@link ServerLimits} the launch names (the
 * framework's defaults unless the soak runs attacks). Unlike the benchmark systems it exposes its
 * in-flight count and its limit figures, which the control protocol reports. With limits other than
 * the defaults a daemon thread samples the budgeted memory in use every millisecond, so that
 * {@link #limitsLine()} can say the largest value between two reports.
 */
public final class SoakServer implements BenchServer {
    public static final String PREFIX = "soak-";

    private final RpcRuntime runtime;
    private final SoakServiceImpl soak;
    private final long budget;
    private final AtomicLong maxMemory = new AtomicLong();
    private volatile boolean sampling;

    private SoakServer(RpcRuntime runtime, SoakServiceImpl soak, long budget) {
        this.runtime = runtime;
        this.soak = soak;
        this.budget = budget;
    }

    public static SoakServer start(String serialization, SystemSettings settings) {
        return start(serialization, settings, ServerLimits.defaults());
    }

    public static SoakServer start(String serialization, SystemSettings settings, ServerLimits limits) {
        SoakServiceImpl soak = new SoakServiceImpl();
        try {
            RpcRuntime runtime = DirectRpc.provider(SerializationVariant.of(serialization),
                    settings.rpcServerThreads(), limits,
                    ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build(),
                    ServiceConfig.builder(SoakService.class, soak).build());
            SoakServer server = new SoakServer(runtime, soak, limits.memoryBudgetBytes());
            if (!limits.equals(ServerLimits.defaults())) {
                server.startSampler();
            }
            return server;
        } catch (RuntimeException e) {
            soak.close();
            throw e;
        }
    }

    @Override
    public int port() {
        return runtime.boundPort();
    }

    /** Calls accepted and not yet answered by the provider. */
    public int inFlight() {
        return runtime.inspect().snapshot().server().inFlightCalls();
    }

    private void startSampler() {
        sampling = true;
        Thread t = new Thread(() -> {
            while (sampling) {
                maxMemory.accumulateAndGet(runtime.inspect().snapshot().server().memoryInUseBytes(), Math::max);
                LockSupport.parkNanos(1_000_000);
            }
        }, "soak-memory-sampler");
        t.setDaemon(true);
        t.start();
    }

    /**
     * The answer to the LIMITS command: budgeted memory in use now, the largest value sampled since
     * the last call (without the sampler: now), connections refused so far, connections open, budget.
     */
    public String limitsLine() {
        long now = runtime.inspect().snapshot().server().memoryInUseBytes();
        long max = Math.max(now, maxMemory.getAndSet(now));
        return "LIMITS memory=" + now + " max=" + max + " refused=" + runtime.inspect().snapshot().server().refusedConnections()
                + " connections=" + runtime.inspect().snapshot().server().connections() + " budget=" + budget;
    }

    @Override
    public void close() {
        sampling = false;
        try {
            runtime.close();
        } finally {
            soak.close();
        }
    }
}
