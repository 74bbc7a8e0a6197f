package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.demo.bid.BidResponse;
import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkService;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.kestrel.rpc.perf.support.Encodings;
import io.kestrel.rpc.perf.support.Workload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;

/**
 * Stock Apache Dubbo 3.3 on its own dubbo protocol with one serialization ({@code dubbo-hessian2},
 * {@code dubbo-fastjson2}): Dubbo at both ends, direct url, one shared reference (Dubbo's one connection per
 * provider), Dubbo's default 200 business threads unless {@code --rpc-server-threads} says otherwise. Runs on the
 * isolated class path of {@link #DUBBO}. Wire bytes are not counted (0): Dubbo 3.3 has no byte counter and
 * ignores a custom codec on its dubbo protocol.
 */
public final class StockDubboSystem implements BenchSystem {
    /** Prefix of the stock Dubbo systems' names. */
    public static final String PREFIX = "dubbo-";

    /** Prefix of the systems whose provider is the framework on the dubbo protocol, called by stock Dubbo. */
    public static final String KESTREL_PREFIX = "kestrel-dubbo-";

    /** Where stock Dubbo runs: the module perf-test-dubbo's class path. */
    static final IsolatedModule DUBBO = new IsolatedModule("stock Dubbo", "kestrel.perf.dubbo.module",
            "perf-test-dubbo", "io.kestrel.rpc.perf.dubbo.StockDubboServerMain",
            "io.kestrel.rpc.perf.dubbo.StockDubboClient");

    private final String serialization;
    private final SystemSettings settings;
    private final boolean kestrelProvider;

    /**
     * @param kestrelProvider whether the provider is the framework on its dubbo protocol (in perf-test's server JVM)
     *     instead of stock Dubbo; the consumer is stock Dubbo's either way
     */
    public StockDubboSystem(String serialization, SystemSettings settings, boolean kestrelProvider) {
        this.serialization = serialization;
        this.settings = settings;
        this.kestrelProvider = kestrelProvider;
    }

    @Override
    public String name() {
        return (kestrelProvider ? KESTREL_PREFIX : PREFIX) + serialization;
    }

    @Override
    public String description() {
        return (kestrelProvider ? "Kestrel RPC's provider on the dubbo protocol (serialization " + serialization
                + ", DemoOptimizer not used) called by stock Apache Dubbo 3.3's consumer"
                : "stock Apache Dubbo 3.3 (dubbo protocol, serialization " + serialization + ") at both ends")
                + ", direct url, one shared reference; Dubbo's consumer on a class path of its own (module"
                + " perf-test-dubbo); wire bytes not counted (0)";
    }

    @Override
    public String unavailableReason() {
        return DUBBO.unavailableReason();
    }

    @Override
    public long argumentBytes(Workload workload) {
        return Encodings.encode(serialization, workload.argument()).length; // Kestrel's encoder of the same format
    }

    @Override
    public BenchServer startServer() throws Exception {
        if (!kestrelProvider) {
            return DUBBO.startServer(serialization, Integer.toString(settings.rpcServerThreads()));
        }
        // all interfaces: a Dubbo consumer told 127.0.0.1 dials this machine's address (its NetUtils.filterLocalHost)
        ProtocolConfig.Builder protocol = ProtocolConfig.builder().name(ProtocolConfig.DUBBO).host("0.0.0.0").port(0)
                .serialization(serialization);
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
        return BenchServer.of(runtime.boundPort(), runtime::close);
    }

    @Override
    public BenchClient openClient(String host, int port) throws Exception {
        ClassLoader isolated = DUBBO.clientLoader();
        Class<?> type = DUBBO.clientType();
        Object client;
        // Dubbo finds its extensions and (hessian) classes through the context class loader: the isolated one
        Thread self = Thread.currentThread();
        ClassLoader previous = self.getContextClassLoader();
        self.setContextClassLoader(isolated);
        try {
            client = type.getConstructor(String.class, int.class, long.class, String.class)
                    .newInstance(host, port, settings.callTimeout().toMillis(), serialization);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("stock Dubbo client did not start: " + e.getCause(), e.getCause());
        } finally {
            self.setContextClassLoader(previous);
        }
        Method caller = type.getMethod("caller", String.class, byte[].class);
        Method written = type.getMethod("bytesWritten");
        Method read = type.getMethod("bytesRead");
        Method close = type.getMethod("close");
        return new BenchClient() {
            @Override
            public Caller newCaller(Workload workload) throws Exception {
                @SuppressWarnings("unchecked")
                Callable<Object> call = (Callable<Object>) caller.invoke(client, workload.label(),
                        javaSerialized(workload.argument()));
                Object expected = summary(workload.expectedResult());
                return () -> {
                    Thread t = Thread.currentThread();
                    ClassLoader before = t.getContextClassLoader();
                    t.setContextClassLoader(isolated);
                    Object got;
                    try {
                        got = call.call();
                    } finally {
                        t.setContextClassLoader(before);
                    }
                    if (!expected.equals(got)) {
                        throw new IllegalStateException(workload.label() + " returned " + got + ", expected " + expected);
                    }
                };
            }

            @Override
            public long bytesWritten() {
                return (long) invoke(written);
            }

            @Override
            public long bytesRead() {
                return (long) invoke(read);
            }

            @Override
            public void close() {
                invoke(close);
            }

            private Object invoke(Method m) {
                try {
                    return m.invoke(client);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("stock Dubbo client: " + m.getName() + " failed", e);
                }
            }
        };
    }

    /** What the isolated client answers for a result (see StockDubboClient): JDK types only. */
    static Object summary(Object result) {
        if (result instanceof BidResponse r) {
            return r.getId() + "/" + (r.getSeatBids() == null ? -1 : r.getSeatBids().size());
        }
        if (result instanceof String s) {
            return s.length();
        }
        return result;
    }

    private static byte[] javaSerialized(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject((Serializable) value);
        }
        return bytes.toByteArray();
    }
}
