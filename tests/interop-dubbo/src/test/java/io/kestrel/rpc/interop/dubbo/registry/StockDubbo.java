package io.kestrel.rpc.interop.dubbo.registry;

import io.kestrel.rpc.interop.dubbo.Loopback;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;

/**
 * A stock Apache Dubbo 3.3 application (provider or consumer) in its own {@link FrameworkModel}, so that two of
 * them in one JVM share nothing (no in-JVM shortcut between them): what a separate Dubbo process would be.
 */
final class StockDubbo implements AutoCloseable {
    private final FrameworkModel framework = new FrameworkModel();
    private final DubboBootstrap bootstrap = DubboBootstrap.newInstance(framework);
    private ReferenceConfig<Greeter> reference;

    private StockDubbo() {
    }

    private static ApplicationConfig application(String name) {
        ApplicationConfig app = new ApplicationConfig(name);
        app.setQosEnable(false);
        app.setRegisterMode("interface"); // interface-level records only (Dubbo's default "all" adds instance ones)
        return app;
    }

    /**
     * A provider of {@link Greeter} version {@code version} on 127.0.0.1:{@code port} answering "{@code reply} name";
     * registered in ZooKeeper at {@code zk} unless {@code register} is false.
     */
    static StockDubbo provider(String zk, int port, String version, String reply, boolean register) {
        StockDubbo d = new StockDubbo();
        ServiceConfig<Greeter> service = new ServiceConfig<>();
        service.setInterface(Greeter.class);
        service.setRef(name -> reply + " " + name);
        service.setVersion(version);
        service.setRegister(register);
        ProtocolConfig protocol = new ProtocolConfig("dubbo", port);
        protocol.setHost(Loopback.HOST);
        d.bootstrap.application(application("stock-provider")).registry(new RegistryConfig("zookeeper://" + zk))
                .protocol(protocol).service(service).start();
        return d;
    }

    /** A consumer of {@link Greeter} version {@code version} through ZooKeeper with Dubbo's default migration rule. */
    static StockDubbo consumer(String zk, String version) {
        StockDubbo d = new StockDubbo();
        ReferenceConfig<Greeter> reference = new ReferenceConfig<>();
        reference.setInterface(Greeter.class);
        reference.setVersion(version);
        reference.setScope("remote");
        reference.setCheck(false);
        reference.setTimeout(3000);
        reference.setRetries(0);
        d.bootstrap.application(application("stock-consumer")).registry(new RegistryConfig("zookeeper://" + zk))
                .reference(reference).start();
        d.reference = reference;
        return d;
    }

    Greeter greeter() {
        return reference.get();
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
