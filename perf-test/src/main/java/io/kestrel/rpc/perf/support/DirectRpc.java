package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServerLimits;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.demo.DemoOptimizer;
import java.time.Duration;

/**
 * The framework as the benchmark and the soak use it: direct mode (no registry) on 127.0.0.1, one
 * serialization with the {@link DemoOptimizer} registrations on both ends, no retries.
 */
public final class DirectRpc {
    private DirectRpc() {
    }

    /**
     * A provider on 127.0.0.1 and a free port ({@link RpcRuntime#boundPort()}) exporting
     * {@code services}; if an export fails, the runtime is closed and the exception thrown.
     *
     * @param serverThreads business threads, or -1 for the framework's default
     */
    public static RpcRuntime provider(SerializationVariant variant, int serverThreads, ServiceConfig<?>... services) {
        return provider(variant, serverThreads, ServerLimits.defaults(), services);
    }

    /** {@link #provider(SerializationVariant, int, ServiceConfig[])} with these limits on its protocol. */
    public static RpcRuntime provider(SerializationVariant variant, int serverThreads, ServerLimits limits,
            ServiceConfig<?>... services) {
        return provider(RpcRuntime.builder(), variant, serverThreads, limits, null, services);
    }

    /**
     * The same, on a runtime builder prepared by the caller (interceptors, for example), over TLS when
     * {@code tls} is not null.
     */
    public static RpcRuntime provider(RpcRuntime.Builder builder, SerializationVariant variant, int serverThreads,
            ServerLimits limits, TlsConfig tls, ServiceConfig<?>... services) {
        ProtocolConfig.Builder protocol = ProtocolConfig.builder()
                .host("127.0.0.1")
                .port(0)
                .serialization(variant.serialization())
                .compatible(variant.compatible())
                .optimizer(DemoOptimizer.class)
                .limits(limits)
                .tls(tls);
        if (serverThreads >= 0) {
            protocol.threads(serverThreads);
        }
        // -Dkestrel.perf.threads=virtual on the server JVM: service methods on virtual threads (JDK 21+)
        if ("virtual".equals(System.getProperty("kestrel.perf.threads"))) {
            protocol.virtualThreads(true);
        }
        // -Dkestrel.perf.queues=N on the server JVM: calls may wait for a business thread in a queue of N
        // (ArrayBlockingQueue) instead of the default hand-off (SynchronousQueue, queues=0)
        Integer queues = Integer.getInteger("kestrel.perf.queues");
        if (queues != null) {
            protocol.queueCapacity(queues);
        }
        RpcRuntime runtime = builder.protocol(protocol.build()).build();
        try {
            for (ServiceConfig<?> service : services) {
                runtime.export(service);
            }
        } catch (RuntimeException e) {
            runtime.close();
            throw e;
        }
        return runtime;
    }

    /** A reference to the provider at {@code url} ("host:port"), with the given timeout and no retries. */
    public static <T> ReferenceConfig<T> reference(Class<T> type, String url, SerializationVariant variant,
            Duration timeout) {
        return reference(type, url, variant, timeout, null);
    }

    /** As above, over TLS when {@code tls} is not null. */
    public static <T> ReferenceConfig<T> reference(Class<T> type, String url, SerializationVariant variant,
            Duration timeout, TlsConfig tls) {
        return ReferenceConfig.builder(type)
                .tls(tls)
                .url(url)
                .serialization(variant.serialization())
                .compatible(variant.compatible())
                .optimizer(DemoOptimizer.class)
                .timeout(timeout)
                .retries(0)
                .build();
    }
}
