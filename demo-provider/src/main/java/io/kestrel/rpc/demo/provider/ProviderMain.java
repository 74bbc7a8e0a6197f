package io.kestrel.rpc.demo.provider;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.registry.embedded.EmbeddedZooKeeper;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.support.GenericXmlApplicationContext;

/**
 * Starts the demo provider from {@code provider.xml} and serves until the JVM is stopped (Ctrl-C or
 * SIGTERM): then the Spring context closes, which unregisters the services, lets in-flight calls finish
 * and stops the embedded ZooKeeper. Settings are system properties: {@code rpc.registry.address}
 * (default {@code embedded}), {@code rpc.protocol.port} (default 20880; 0 = any free port),
 * {@code rpc.protocol.host}, {@code rpc.protocol.advertised-host}, {@code rpc.protocol.serialization}.
 *
 * <p>Once serving it logs one line with {@value #READY}, the port and the registry address that
 * consumers use ({@code embedded://PORT} for the embedded one: a consumer joins it as a member, which a plain
 * {@code zookeeper://} client cannot, see docs/embedded-registry-security.md); run-demo.sh waits for it.
 */
public final class ProviderMain {
    /** Marker of the line logged when the provider serves. */
    public static final String READY = "Kestrel demo provider ready";
    private static final Logger log = LoggerFactory.getLogger(ProviderMain.class);

    private ProviderMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        GenericXmlApplicationContext context = new GenericXmlApplicationContext();
        context.load("classpath:provider.xml");
        context.registerShutdownHook();
        context.refresh();
        RpcRuntime runtime = context.getBean(RpcRuntime.class);
        String registry = runtime.registryConfig().isEmbedded()
                ? EmbeddedZooKeeper.current().map(zk -> "embedded://" + zk.port()).orElse("embedded (not started)")
                : runtime.registryConfig().address();
        String published = runtime.inspect().services().isEmpty() ? runtime.protocol().advertisedHost() + ":" + runtime.boundPort()
                : runtime.inspect().services().get(0).address(); // the address chosen for the registry (docs/across-hosts.md)
        log.info("{}: {} on {}, serialization {} by default; registry {}", READY, "UserService, BidService",
                published, runtime.protocol().serialization(), registry);
        new CountDownLatch(1).await(); // the shutdown hook closes the context
    }
}
