package io.kestrel.rpc.interop.dubbo;

import java.util.ArrayList;
import java.util.List;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;

/**
 * One stock Dubbo application for a test: its own bootstrap (no registry, QoS off), references by direct url
 * and services on a free dubbo port. {@link #close()} stops its threads and ports.
 */
final class DubboSide implements AutoCloseable {
    /** The address providers bind and clients dial: loopback, Dubbo's pinned to it ({@link Loopback}). */
    static final String HOST = Loopback.HOST;

    private final DubboBootstrap bootstrap;
    private final List<ReferenceConfig<?>> references = new ArrayList<>();

    private DubboSide(DubboBootstrap bootstrap) {
        this.bootstrap = bootstrap;
    }

    static DubboSide start(String application) {
        ApplicationConfig app = new ApplicationConfig(application);
        app.setQosEnable(false);
        app.setRegisterMode("interface");
        DubboBootstrap bootstrap = DubboBootstrap.newInstance();
        bootstrap.application(app);
        return new DubboSide(bootstrap);
    }

    /** A stock Dubbo reference to {@code url} (dubbo://host:port), hessian2, with a timeout. */
    <T> T refer(Class<T> type, String url, int timeoutMillis) {
        return refer(type, url, timeoutMillis, null, null);
    }

    /** As {@link #refer(Class, String, int)}, for a service's group and version (null: none). */
    <T> T refer(Class<T> type, String url, int timeoutMillis, String group, String version) {
        return refer(type, url, timeoutMillis, group, version, null);
    }

    /** As {@link #refer(Class, String, int)}, sending with Dubbo's serialization {@code serialization}. */
    <T> T referWith(Class<T> type, String url, int timeoutMillis, String serialization) {
        return refer(type, url, timeoutMillis, null, null, serialization);
    }

    private <T> T refer(Class<T> type, String url, int timeoutMillis, String group, String version,
            String serialization) {
        ReferenceConfig<T> ref = new ReferenceConfig<>();
        if (serialization != null) {
            ref.setParameters(new java.util.HashMap<>(java.util.Map.of("serialization", serialization)));
        }
        if (group != null) {
            ref.setGroup(group);
        }
        if (version != null) {
            ref.setVersion(version);
        }
        ref.setInterface(type);
        ref.setUrl(url);
        ref.setTimeout(timeoutMillis);
        ref.setRetries(0);
        ref.setCheck(true);
        bootstrap.reference(ref);
        references.add(ref);
        bootstrap.start();
        return ref.get();
    }

    /** A stock Dubbo generic reference ({@code generic="true"}) to the service {@code interfaceName} at {@code url}. */
    org.apache.dubbo.rpc.service.GenericService referGeneric(String interfaceName, String url, int timeoutMillis) {
        ReferenceConfig<org.apache.dubbo.rpc.service.GenericService> ref = new ReferenceConfig<>();
        ref.setInterface(interfaceName);
        ref.setGeneric("true");
        ref.setUrl(url);
        ref.setTimeout(timeoutMillis);
        ref.setRetries(0);
        bootstrap.reference(ref);
        references.add(ref);
        bootstrap.start();
        return ref.get();
    }

    /** Exports {@code impl} on a stock Dubbo provider on a free port with hessian2; returns the port. */
    <T> int export(Class<T> type, T impl, int port) {
        return export(type, impl, port, "hessian2");
    }

    /** As {@link #export(Class, Object, int)} with Dubbo's serialization {@code serialization}. */
    <T> int export(Class<T> type, T impl, int port, String serialization) {
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setSerialization(serialization);
        protocol.setThreadpool("cached"); // the load tests put 1,000 calls in flight; the default 200 answer "exhausted"
        ServiceConfig<T> service = new ServiceConfig<>();
        service.setInterface(type);
        service.setRef(impl);
        service.setProtocol(protocol);
        service.setRegister(false);
        bootstrap.service(service);
        bootstrap.start();
        return port;
    }

    /** A port free now (a stock Dubbo provider needs a number). */
    static int freePort() {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            return s.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        bootstrap.stop();
    }
}
