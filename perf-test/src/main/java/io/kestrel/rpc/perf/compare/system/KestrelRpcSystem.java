package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.perf.support.BenchTls;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.core.TransportStats;
import io.kestrel.rpc.demo.DemoOptimizer;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.server.LimitsSpec;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.DirectRpc;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.ObservedRpc;
import io.kestrel.rpc.perf.support.ResultCheck;
import io.kestrel.rpc.perf.support.SerializationVariant;
import io.kestrel.rpc.perf.support.Workload;

/**
 * The framework itself in direct mode (no registry), with one serialization and the
 * {@link DemoOptimizer} registrations ({@link DirectRpc}). All load threads share one reference,
 * hence one multiplexed connection, which is how the framework is meant to be used. Wire bytes come
 * from the runtime's {@link TransportStats}.
 */
public final class KestrelRpcSystem implements BenchSystem {
    /** Server JVM property choosing the benchmark service's dispatch (auto, pool, direct); default auto. */
    public static final String DISPATCH_PROPERTY = "kestrel.perf.dispatch";

    private final String name;
    private final SerializationVariant variant;
    private final SystemSettings settings;
    private final boolean tls;
    private final ObservedRpc.Tracing observed;
    private final Dispatch dispatch; // null: -Dkestrel.perf.dispatch on the server JVM, else auto

    /**
     * @param variant a serialization name, optionally with "-compatible" for its compatible mode
     * @param tls whether calls go over TLS (TLS 1.3, JDK engine, certificates of {@link BenchTls})
     * @param observed how both ends trace calls, with metrics ({@link ObservedRpc}), or null for neither
     */
    public KestrelRpcSystem(String variant, SystemSettings settings, boolean tls, ObservedRpc.Tracing observed) {
        this(variant, settings, tls, observed, null);
    }

    /**
     * As above, the benchmark service dispatched as {@code dispatch} whatever the server JVM's
     * {@value #DISPATCH_PROPERTY} says (null: as it says); a fixed dispatch adds {@link BenchSystems#DIRECT} to the name.
     */
    public KestrelRpcSystem(String variant, SystemSettings settings, boolean tls, ObservedRpc.Tracing observed,
            Dispatch dispatch) {
        this.dispatch = dispatch;
        this.tls = tls;
        this.name = variant;
        this.variant = SerializationVariant.of(variant);
        this.settings = settings;
        this.observed = observed;
    }

    @Override
    public String name() {
        return "kestrel-" + name + (tls ? BenchSystems.TLS : "") + (dispatch == Dispatch.DIRECT ? BenchSystems.DIRECT : "")
                + (observed == null ? ""
                : observed == ObservedRpc.Tracing.OPENTELEMETRY ? BenchSystems.OTEL : BenchSystems.OBSERVED);
    }

    @Override
    public String description() {
        return "Kestrel RPC, direct mode, serialization " + variant.serialization()
                + (dispatch != null ? ", the service dispatched " + dispatch.name().toLowerCase(java.util.Locale.ROOT) : "")
                + (variant.compatible() ? " (compatible mode)" : "") + (tls ? ", over TLS (" + BenchTls.DESCRIPTION
                + ")" : "") + " with DemoOptimizer, server threads "
                + (settings.rpcServerThreads() < 0 ? "default" : settings.rpcServerThreads())
                + (settings.serverLimits().isEmpty() ? "" : ", limits " + settings.serverLimits())
                + "; one shared reference (multiplexed connection); bytes from RpcRuntime.inspect().snapshot().wire()"
                + (observed == null ? "" : "; metrics (Prometheus registry, histograms) and tracing ("
                        + (observed == ObservedRpc.Tracing.OPENTELEMETRY ? "KestrelOpenTelemetry"
                                : "KestrelTracing, Micrometer Observation through the OpenTelemetry bridge")
                        + "; OpenTelemetry SDK, " + samplingDescription() + ", no-op exporter) on both ends");
    }

    private static String samplingDescription() {
        double share = ObservedRpc.sampling();
        return share >= 1 ? "every call sampled"
                : "a share of " + share + " of traces sampled (the provider follows the consumer's decision)";
    }

    @Override
    public String unavailableReason() {
        return variant.isInstalled() ? null : "serialization '" + variant.serialization()
                + "' is not installed (installed: " + Encodings.installedNames().keySet() + ")";
    }

    @Override
    public long argumentBytes(Workload workload) {
        return variant.isInstalled() ? Encodings.encode(name, workload.argument()).length : -1;
    }

    @Override
    public BenchServer startServer() {
        // -Dkestrel.perf.dispatch=pool|direct on the server JVM (--server-jvm-args) compares the dispatch modes
        ServiceConfig<BenchmarkService> service = ServiceConfig.builder(BenchmarkService.class,
                new BenchmarkServiceImpl()).dispatch(dispatch != null ? dispatch
                        : Dispatch.parse(System.getProperty(DISPATCH_PROPERTY, "auto"))).build();
        if (observed == null) {
            RpcRuntime runtime = DirectRpc.provider(RpcRuntime.builder(), variant, settings.rpcServerThreads(),
                    LimitsSpec.parse(settings.serverLimits()), tls ? BenchTls.server() : null, service);
            return BenchServer.of(runtime.boundPort(), runtime::close);
        }
        ObservedRpc observability = new ObservedRpc(observed);
        RpcRuntime runtime = observability.bind(DirectRpc.provider(observability.install(RpcRuntime.builder()), variant,
                settings.rpcServerThreads(), LimitsSpec.parse(settings.serverLimits()), tls ? BenchTls.server() : null, service));
        return BenchServer.of(runtime.boundPort(), () -> {
            runtime.close();
            observability.close();
        });
    }

    @Override
    public BenchClient openClient(String host, int port) {
        ObservedRpc observability = observed != null ? new ObservedRpc(observed) : null;
        RpcRuntime runtime = observability != null ? observability.bind(observability.install(RpcRuntime.builder()).build())
                : RpcRuntime.builder().build();
        BenchmarkService service;
        try {
            service = runtime.refer(DirectRpc.reference(BenchmarkService.class, host + ":" + port, variant,
                    settings.callTimeout(), tls ? BenchTls.client() : null));
        } catch (RuntimeException e) {
            runtime.close();
            if (observability != null) {
                observability.close();
            }
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
            public AsyncCaller newAsyncCaller(Workload workload) {
                Object argument = workload.argument();
                Object expected = workload.expectedResult();
                return () -> workload.invokeAsync(service, argument).thenApply(v -> {
                    ResultCheck.check(workload, expected, v);
                    return v;
                });
            }

            @Override
            public long bytesWritten() {
                return runtime.inspect().snapshot().wire().bytesWritten();
            }

            @Override
            public long bytesRead() {
                return runtime.inspect().snapshot().wire().bytesRead();
            }

            @Override
            public void close() {
                runtime.close();
                if (observability != null) {
                    observability.close();
                }
            }
        };
    }
}
