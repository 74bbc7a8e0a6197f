package io.kestrel.rpc.perf.soak;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.compare.system.SystemSettings;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.transport.RpcServer;

/**
 * The provider of the soak mode, run in the server JVM by {@link PerfServerMain} for system names
 * {@code soak-<serialization>}: one runtime on 127.0.0.1 exporting {@link BenchmarkService} and
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
        ProtocolConfig.Builder protocol = ProtocolConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .serialization(serialization)
                .optimizer(DemoOptimizer.class);
        if (settings.rpcServerThreads() >= 0) {
            protocol.threads(settings.rpcServerThreads());
        }
        RpcRuntime runtime = RpcRuntime.builder().protocol(protocol.build()).build();
        SoakServiceImpl soak = new SoakServiceImpl();
        try {
            runtime.export(ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build());
            runtime.export(ServiceConfig.builder(SoakService.class, soak).build());
        } catch (RuntimeException e) {
            runtime.close();
            soak.close();
            throw e;
        }
        return new SoakServer(runtime, soak);
    }

    @Override
    public int port() {
        return runtime.boundPort();
    }

    /** Calls accepted and not yet answered by the provider. */
    public int inFlight() {
        RpcServer server = runtime.server();
        return server == null ? 0 : server.inFlight();
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
