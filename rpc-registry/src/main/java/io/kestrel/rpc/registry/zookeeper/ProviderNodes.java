package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The provider nodes one {@link ZooKeeperRegistry} registered, by path: each a {@link RecordNode} that Curator
 * creates again after a session expiry. Thread-safe. Logs as the registry.
 */
final class ProviderNodes {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

    private final Supplier<CuratorFramework> client;
    private final RegistryConfig config;
    private final RegistrationLog registrationLog;
    private final BooleanSupplier connected;
    private final ConcurrentMap<String, RecordNode> registered = new ConcurrentHashMap<>();

    ProviderNodes(Supplier<CuratorFramework> client, RegistryConfig config, RegistrationLog registrationLog,
            BooleanSupplier connected) {
        this.client = client;
        this.config = config;
        this.registrationLog = registrationLog;
        this.connected = connected;
    }

    /** See {@link ZooKeeperRegistry#register}. */
    void register(ProviderInfo provider) {
        String path = ZooKeeperPaths.providerPath(config.root(), config.dubboRoot(), provider);
        RecordNode node = new RecordNode(client.get(), path,
                ZooKeeperPaths.providerData(provider).getBytes(StandardCharsets.UTF_8), provider.toString(),
                registrationLog::restored);
        if (registered.putIfAbsent(path, node) != null) {
            log.debug("Provider {} is already registered in {}", provider, config.address());
            return;
        }
        if (ZooKeeperRegistry.isDubbo(provider.protocol())) {
            DubboFolders.ensure(client.get(), ZKPaths.getPathAndNode(path).getPath(), config.address());
        }
        node.start();
        boolean created;
        try {
            created = node.waitForInitialCreate(config.connectionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            created = false;
        }
        if (!created) {
            registered.remove(path, node);
            closeNode(node, provider.toString());
            throw new RegistryException(String.format(
                    "Could not register provider %s in ZooKeeper %s within %d ms (connected: %s); check that "
                            + "ZooKeeper is reachable and retry",
                    provider, config.address(), config.connectionTimeout().toMillis(), connected.getAsBoolean()));
        }
        log.info("Registered provider {} in {} at {}", provider, config.address(), path);
    }

    void unregister(ProviderInfo provider) {
        RecordNode node = registered.remove(ZooKeeperPaths.providerPath(config.root(), config.dubboRoot(), provider));
        if (node != null) {
            closeNode(node, provider.toString());
            log.info("Unregistered provider {} from {}", provider, config.address());
        }
    }

    /**
     * Deletes every node (when ZooKeeper is reachable; otherwise they vanish when the session ends, and the
     * delete is skipped rather than waiting through every retry).
     */
    void closeAll() {
        if (!connected.getAsBoolean() && !registered.isEmpty()) {
            log.warn("ZooKeeper {} is unreachable while closing; {} provider node(s) will disappear when the "
                    + "session times out ({} ms)", config.address(), registered.size(),
                    config.sessionTimeout().toMillis());
        }
        for (Map.Entry<String, RecordNode> e : registered.entrySet()) {
            e.getValue().closing = true;
            closeNode(e.getValue(), e.getKey());
        }
        registered.clear();
    }

    /** The connection to ZooKeeper is suspended: the nodes may be lost with the session. */
    void suspended() {
        registrationLog.suspended(registered.size());
    }

    /** The session is lost: every node is marked, so that its creation in the next session is reported. */
    void lost() {
        List<String> lost = new ArrayList<>();
        for (RecordNode node : registered.values()) {
            node.lost = true;
            lost.add(node.what());
        }
        registrationLog.lost(lost);
    }

    private void closeNode(RecordNode node, String what) {
        try {
            node.close();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete provider node {} in {}; it disappears when the session ends",
                    what, config.address(), e);
        }
    }
}
