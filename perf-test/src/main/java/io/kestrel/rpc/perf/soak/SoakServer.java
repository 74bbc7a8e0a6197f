package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.SerializationVariant;

/**
 * The provider of the soak mode, run in the server JVM by
 * {@link io.kestrel.rpc.perf.server.PerfServerMain} for system names {@code soak-<serialization>}:
 * one runtime on 127.0.0.1 ({@link DirectRpc}) exporting {@link BenchmarkService} and
 * {@link SoakService}, with {@link DemoOptimizer}. Unlike the benchmark systems it exposes its
 * in-flight count, which the control protocol reports.
 */
public final class SoakServer implements BenchServer {
    public static final String PREFIX = "soak-";

    private final RpcRuntime runtime;
    private final SoakServiceImpl soak;

    private SoakServer(RpcRuntime runtime, SoakServiceImpl soak) {
        this.runtime = runtime;
        this.soak = soak;
    }

    public static SoakServer start(String serialization, SystemSettings settings) {
        SoakServiceImpl soak = new SoakServiceImpl();
        try {
            RpcRuntime runtime = DirectRpc.provider(SerializationVariant.of(serialization),
                    settings.rpcServerThreads(),
                    ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build(),
                    ServiceConfig.builder(SoakService.class, soak).build());
            return new SoakServer(runtime, soak);
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
        return runtime.inFlightCalls();
    }

    @Override
    public void close() {
        try {
            runtime.close();
        } finally {
            soak.close();
        }
    }
}
