package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TransportStats;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.ResultCheck;
import io.kestrel.rpc.perf.support.Workload;

/**
 * The framework itself in direct mode (no registry), with one serialization and the
 * {@link DemoOptimizer} registrations. All load threads share one reference, hence one multiplexed
 * connection, which is how the framework is meant to be used. Wire bytes come from the runtime's
 * {@link TransportStats}.
 */
public final class KestrelRpcSystem implements BenchSystem {
    private final String variant;
    private final String serialization;
    private final boolean compatible;
    private final SystemSettings settings;

    /** @param variant a serialization name, optionally with "-compatible" for its compatible mode */
    public KestrelRpcSystem(String variant, SystemSettings settings) {
        this.variant = variant;
        this.compatible = variant.endsWith(Encodings.COMPATIBLE_SUFFIX);
        this.serialization = compatible ? variant.substring(0, variant.length() - Encodings.COMPATIBLE_SUFFIX.length())
                : variant;
        this.settings = settings;
    }

    @Override
    public String name() {
        return "kestrel-" + variant;
    }

    @Override
    public String description() {
        return "Kestrel RPC, direct mode, serialization " + serialization + (compatible ? " (compatible mode)" : "")
                + " with DemoOptimizer, server threads "
                + (settings.rpcServerThreads() < 0 ? "default" : settings.rpcServerThreads())
                + "; one shared reference (multiplexed connection); bytes from RpcRuntime.transportStats()";
    }

    @Override
    public String unavailableReason() {
        return Encodings.isAvailable(serialization) ? null
                : "serialization '" + serialization + "' is not installed (installed: " + Encodings.installedNames().keySet() + ")";
    }

    @Override
    public long argumentBytes(Workload workload) {
        return Encodings.isAvailable(serialization) ? Encodings.encode(variant, workload.argument()).length : -1;
    }

    @Override
    public BenchServer startServer() {
        ProtocolConfig.Builder protocol = ProtocolConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .serialization(serialization)
                .compatible(compatible)
                .optimizer(DemoOptimizer.class);
        if (settings.rpcServerThreads() >= 0) {
            protocol.threads(settings.rpcServerThreads());
        }
        RpcRuntime runtime = RpcRuntime.builder().protocol(protocol.build()).build();
        try {
            runtime.export(ServiceConfig.builder(BenchmarkService.class, new BenchmarkServiceImpl()).build());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        int port = runtime.boundPort();
        return new BenchServer() {
            @Override
            public int port() {
                return port;
            }

            @Override
            public void close() {
                runtime.close();
            }
        };
    }

    @Override
    public BenchClient openClient(String host, int port) {
        RpcRuntime runtime = RpcRuntime.builder().build();
        BenchmarkService service;
        try {
            service = runtime.refer(ReferenceConfig.builder(BenchmarkService.class)
                    .url(host + ":" + port)
                    .serialization(serialization)
                    .compatible(compatible)
                    .optimizer(DemoOptimizer.class)
                    .timeout(settings.callTimeout())
                    .retries(0)
                    .build());
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return new BenchClient() {
            @Override
            public Caller newCaller(Workload workload) {
                Object argument = workload.argument();
                Object expected = workload.expectedResult();
                return () -> ResultCheck.check(workload, expected, workload.invoke(service, argument));
            }

            @Override
            public long bytesWritten() {
                return runtime.transportStats().bytesWritten();
            }

            @Override
            public long bytesRead() {
                return runtime.transportStats().bytesRead();
            }

            @Override
            public void close() {
                runtime.close();
            }
        };
    }
}
