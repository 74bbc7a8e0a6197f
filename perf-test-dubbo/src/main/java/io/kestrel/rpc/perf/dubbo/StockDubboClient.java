package io.kestrel.rpc.perf.dubbo;

import io.kestrel.rpc.perf.support.BenchmarkService;

import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.concurrent.Callable;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * The client half of perf-test's stock Dubbo systems: one Dubbo reference (one connection, Dubbo's default for
 * the dubbo protocol) shared by every load thread. perf-test loads this class in a class loader of its own and
 * calls it by reflection with JDK types only: {@link #caller} takes the workload's argument Java-serialized and
 * returns a {@link Callable} whose result is a JDK-typed summary that perf-test checks
 * ({@code "<bid response id>/<seat bids>"}, the echo's length, the boolean).
 */
public final class StockDubboClient implements AutoCloseable {
    static {
        preferFastjson2();
    }

    /**
     * Dubbo 3.3.6 instantiates every JSON binding it lists unless one is preferred; on JDK 25 its fastjson 1 binding
     * fails to link without fastjson 1 on the class path. Called before any Dubbo code runs in this class loader.
     */
    static void preferFastjson2() {
        if (System.getProperty("dubbo.json-framework.prefer") == null) {
            System.setProperty("dubbo.json-framework.prefer", "fastjson2");
        }
    }

    private final FrameworkModel framework = new FrameworkModel();
    private final DubboBootstrap bootstrap = DubboBootstrap.newInstance(framework);
    private final BenchmarkService service;

    public StockDubboClient(String host, int port, long timeoutMillis, String serialization) {
        ApplicationConfig application = new ApplicationConfig("perf-stock-dubbo-consumer");
        application.setQosEnable(false);
        ReferenceConfig<BenchmarkService> reference = new ReferenceConfig<>();
        reference.setInterface(BenchmarkService.class);
        reference.setUrl("dubbo://" + host + ":" + port + "?serialization=" + serialization);
        reference.setTimeout((int) timeoutMillis);
        reference.setRetries(0);
        reference.setCheck(true);
        bootstrap.application(application).reference(reference).start();
        this.service = reference.get();
    }

    /** A call of {@code workload} ("bid", "echo-50k", "exists") with the given Java-serialized argument. */
    public Callable<Object> caller(String workload, byte[] argument) throws IOException, ClassNotFoundException {
        Object arg;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(argument)) {
            @Override
            protected Class<?> resolveClass(java.io.ObjectStreamClass desc) throws ClassNotFoundException {
                return Class.forName(desc.getName(), false, StockDubboClient.class.getClassLoader());
            }
        }) {
            arg = in.readObject();
        }
        return switch (workload) {
            case "bid" -> {
                BidRequest request = (BidRequest) arg;
                yield () -> {
                    BidResponse r = service.bid(request);
                    return r.getId() + "/" + (r.getSeatBids() == null ? -1 : r.getSeatBids().size());
                };
            }
            case "echo-50k" -> {
                String text = (String) arg;
                yield () -> service.echo(text).length();
            }
            case "exists" -> {
                long id = (Long) arg;
                yield () -> service.exists(id);
            }
            default -> throw new IllegalArgumentException("unknown workload " + workload);
        };
    }

    /**
     * Bytes written: not counted, always 0. Dubbo 3.3 ignores a {@code codec} parameter on the dubbo protocol
     * (a counting codec was tried and never instantiated), and it exposes no byte counter.
     */
    public long bytesWritten() {
        return 0;
    }

    /** Bytes read: not counted, always 0 (see {@link #bytesWritten()}). */
    public long bytesRead() {
        return 0;
    }

    @Override
    public void close() {
        try {
            bootstrap.stop();
        } finally {
            framework.destroy();
        }
    }
}
