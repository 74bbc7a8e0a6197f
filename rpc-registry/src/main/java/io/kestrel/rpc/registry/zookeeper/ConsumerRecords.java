package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ConsumerInfo;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A registry's consumer records: one EPHEMERAL node per consumer under the service's {@code consumers} folder
 * (see {@link ZooKeeperPaths}), kept by Curator's PersistentNode ({@link RecordNode}) across session expiry like provider
 * nodes, and counted, so two references of one process to one service keep the record until both are gone.
 * Thread-safe.
 */
final class ConsumerRecords {
    private static final Logger log = LoggerFactory.getLogger(ConsumerRecords.class);

    private final CuratorFramework client;
    private final String root;
    private final String dubboRoot;
    private final String address;
    private final long createWaitMs;
    /** By path. Guarded by itself. */
    private final Map<String, Counted> nodes = new HashMap<>();

    ConsumerRecords(CuratorFramework client, String root, String dubboRoot, String address, long createWaitMs) {
        this.client = client;
        this.root = root;
        this.dubboRoot = dubboRoot;
        this.address = address;
        this.createWaitMs = createWaitMs;
    }

    private static final class Counted {
        final RecordNode node;
        int count = 1;

        Counted(RecordNode node) {
            this.node = node;
        }
    }

    void register(ConsumerInfo consumer) {
        String path = ZooKeeperPaths.consumerPath(root, dubboRoot, consumer);
        RecordNode node;
        synchronized (nodes) {
            Counted c = nodes.get(path);
            if (c != null) {
                c.count++;
                return;
            }
            node = new RecordNode(client, path, ZooKeeperPaths.consumerData(consumer).getBytes(StandardCharsets.UTF_8),
                    consumer.toString(), null);
            nodes.put(path, new Counted(node));
        }
        if (consumer.attribute(ProviderInfo.PROTOCOL).filter(DubboUrls.SCHEME::equals).isPresent()) {
            DubboFolders.ensure(client, ZKPaths.getPathAndNode(path).getPath(), address);
        }
        node.start();
        try {
            if (!node.waitForInitialCreate(createWaitMs, TimeUnit.MILLISECONDS)) {
                log.warn("Consumer record {} not yet created in {} after {} ms; it will be once ZooKeeper answers",
                        path, address, createWaitMs);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        log.debug("Recorded consumer {} in {} at {}", consumer, address, path);
    }

    void unregister(ConsumerInfo consumer) {
        String path = ZooKeeperPaths.consumerPath(root, dubboRoot, consumer);
        Counted c;
        synchronized (nodes) {
            c = nodes.get(path);
            if (c == null || --c.count > 0) {
                return;
            }
            nodes.remove(path);
        }
        close(c.node, path);
    }

    List<ConsumerInfo> read(ServiceKey service) {
        String folder = ZooKeeperPaths.consumersPath(root, service);
        List<String> children;
        try {
            children = client.getChildren().forPath(folder);
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new RegistryException("Could not read the consumers of " + service + " at " + folder + " in "
                    + address + ": " + e, e);
        }
        List<ConsumerInfo> result = new ArrayList<>();
        for (String child : children) {
            try {
                result.add(ZooKeeperPaths.parseConsumerNode(child));
            } catch (IllegalArgumentException e) {
                log.debug("Skipping {}/{} in {}: {}", folder, child, address, e.getMessage());
            }
        }
        result.sort(Comparator.comparing(ConsumerInfo::toUrl));
        return List.copyOf(result);
    }

    /**
     * Closes every record (registry closing): deleted while ZooKeeper answers, otherwise they end with the session
     * (see {@link RecordNode}).
     */
    void closeAll() {
        List<Map.Entry<String, Counted>> all;
        synchronized (nodes) {
            all = new ArrayList<>(nodes.entrySet());
            nodes.clear();
        }
        for (Map.Entry<String, Counted> e : all) {
            e.getValue().node.closing = true;
            close(e.getValue().node, e.getKey());
        }
    }

    private void close(RecordNode node, String path) {
        try {
            node.close();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete consumer record {} in {}; it disappears when the session ends", path, address,
                    e);
        }
    }
}
