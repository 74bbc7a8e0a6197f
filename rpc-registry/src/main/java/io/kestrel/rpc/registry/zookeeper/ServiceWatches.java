package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subscriptions of one {@link ZooKeeperRegistry}: one {@link ServiceWatch} per service and protocol, shared by
 * its listeners, and the one notification thread they are told on. Thread-safe.
 */
final class ServiceWatches {
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class); // its messages, as before

    private final Supplier<CuratorFramework> client;
    private final String root;
    private final String dubboRoot;
    private final String address;
    private final long waitMs;
    private final BooleanSupplier connected;
    private final ScheduledExecutorService notifier;
    private volatile Thread notifierThread;
    /** Guarded by itself. */
    private final Map<WatchKey, ServiceWatch> watches = new LinkedHashMap<>();

    /**
     * @param client the registry's client, asked for when the first watch starts
     * @param waitMs how long {@link #subscribe} waits for the first list
     * @param connected whether the registry's ZooKeeper connection is up
     */
    ServiceWatches(Supplier<CuratorFramework> client, String root, String dubboRoot, String address, long waitMs,
            BooleanSupplier connected) {
        this.client = client;
        this.root = root;
        this.dubboRoot = dubboRoot;
        this.address = address;
        this.waitMs = waitMs;
        this.connected = connected;
        this.notifier = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kestrel-registry-notify");
            t.setDaemon(true);
            notifierThread = t;
            return t;
        });
    }

    /** See {@link ZooKeeperRegistry#subscribe(ServiceKey, String, ProviderListener)}. */
    void subscribe(ServiceKey service, String protocol, ProviderListener listener) {
        ServiceWatch.Subscriber subscriber = new ServiceWatch.Subscriber(listener);
        ServiceWatch watch;
        synchronized (watches) {
            watch = watches.computeIfAbsent(new WatchKey(service, protocol), this::watch);
            watch.subscribers.add(subscriber);
        }
        runOnNotifier(() -> watch.tellCurrent(subscriber));
        if (Thread.currentThread() == notifierThread) {
            return;
        }
        try {
            if (!subscriber.told.await(waitMs, TimeUnit.MILLISECONDS)) {
                log.warn("No provider list for {} from ZooKeeper {} after {} ms (connected: {}); the listener will "
                        + "be told once ZooKeeper answers", service, address, waitMs, connected.getAsBoolean());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    void unsubscribe(ServiceKey service, String protocol, ProviderListener listener) {
        ServiceWatch toClose = null;
        WatchKey key = new WatchKey(service, protocol);
        synchronized (watches) {
            ServiceWatch watch = watches.get(key);
            if (watch == null) {
                return;
            }
            watch.subscribers.removeIf(s -> s.listener == listener);
            if (watch.subscribers.isEmpty()) {
                watches.remove(key);
                toClose = watch;
            }
        }
        if (toClose != null) {
            toClose.close();
        }
    }

    /** Every watch now. */
    List<ServiceWatch> all() {
        synchronized (watches) {
            return new ArrayList<>(watches.values());
        }
    }

    /** Stops every watch and the notification thread. */
    void close() {
        List<ServiceWatch> toClose;
        synchronized (watches) {
            toClose = new ArrayList<>(watches.values());
            watches.clear();
        }
        toClose.forEach(ServiceWatch::close);
        notifier.shutdownNow();
    }

    /** Stops the notification thread only (a registry that failed to start has no watch). */
    void shutdownNotifier() {
        notifier.shutdownNow();
    }

    /** The list last told to listeners of {@code service} on the native protocol, or null if none was told yet. */
    List<ProviderInfo> lastTold(ServiceKey service) {
        ServiceWatch watch;
        synchronized (watches) {
            watch = watches.get(new WatchKey(service, ProviderInfo.NATIVE_PROTOCOL));
        }
        return watch == null ? null : watch.current;
    }

    /** Starts following what {@code key} names (under the lock of {@link #watches}). */
    private ServiceWatch watch(WatchKey key) {
        boolean dubbo = DubboUrls.SCHEME.equals(key.protocol());
        String path = dubbo ? ZooKeeperPaths.dubboProvidersPath(dubboRoot, key.service().interfaceName())
                : ZooKeeperPaths.providersPath(root, key.service());
        return new ServiceWatch(key.service(), dubbo, path, client.get(), address, notifier, connected);
    }

    private void runOnNotifier(Runnable task) {
        try {
            notifier.execute(task);
        } catch (RejectedExecutionException e) {
            log.debug("Registry {} closed; dropping a notification", address);
        }
    }

    /** What a watch follows: one service's providers on one protocol. */
    private record WatchKey(ServiceKey service, String protocol) {
    }
}
