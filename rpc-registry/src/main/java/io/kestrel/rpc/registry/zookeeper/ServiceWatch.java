package io.kestrel.rpc.registry.zookeeper;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.ProviderListener;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.recipes.cache.CuratorCacheStorage;
import org.apache.curator.utils.ZKPaths;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One service's providers on one protocol as {@link ZooKeeperRegistry} follows them: a {@link CuratorCache}
 * on the providers folder, shared by the registry's listeners of that service, each told the full list
 * on the notifier thread when it differs from what that listener was last told. Changes are gathered for
 * {@value ZooKeeperRegistry#NOTIFY_DELAY_MS} ms; nothing is told while the connection is down.
 *
 * <p>After every reconnect the cache is replaced by a new one ({@link #rebuild}) and nothing is told until the
 * new one has read the folder: the old cache may never see providers that registered while it was away.
 * (CuratorCache re-reads a folder's children after a reconnect only when the folder's child version differs
 * from the one it remembers; a ZooKeeper that came back empty, or an embedded one taken over, has a new folder
 * whose version can be the same while its children are other ones.)
 */
final class ServiceWatch {
    // the registry's logger: what users configure for provider-list messages stays one category
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperRegistry.class);

    private final ServiceKey service;
    /** Reads Dubbo's layout (protocol "dubbo") instead of the native one. */
    private final boolean dubbo;
    private final String providersPath;
    private final CuratorFramework client;
    /** Replaced after every reconnect ({@link #rebuild}); events of a replaced one are ignored. */
    private volatile CuratorCache cache;
    final List<Subscriber> subscribers = new CopyOnWriteArrayList<>();
    private final AtomicBoolean publishScheduled = new AtomicBoolean();
    private volatile boolean initialized;
    private volatile boolean stopped;
    /** Last list told; null until the first one. Written on the notifier thread. */
    volatile List<ProviderInfo> current;
    /**
     * Node names already warned about and still present (notifier thread only): forgotten when their node
     * goes away, at most {@link #MAX_WARNED} (names beyond are counted, not remembered).
     */
    private final Set<String> warnedMalformed = new HashSet<>();
    /** Malformed names seen in the pass being read, to forget those that went away (notifier thread only). */
    private final Set<String> malformedNow = new HashSet<>();
    private int unlistedMalformed;
    static final int MAX_WARNED = 1024;

    private final String registryAddress;
    private final ScheduledExecutorService notifier;
    private final BooleanSupplier connected;

    /**
     * Starts watching {@code providersPath}.
     *
     * @param registryAddress the registry's address, for messages
     * @param notifier the one thread listeners are told on
     * @param connected whether the registry's ZooKeeper connection is up (nothing is told while it is not)
     */
    ServiceWatch(ServiceKey service, boolean dubbo, String providersPath, CuratorFramework client,
            String registryAddress, ScheduledExecutorService notifier, BooleanSupplier connected) {
        this.service = service;
        this.dubbo = dubbo;
        this.providersPath = providersPath;
        this.registryAddress = registryAddress;
        this.notifier = notifier;
        this.connected = connected;
        this.client = client;
        startCache();
        log.debug("Watching {} in {}", providersPath, registryAddress);
    }

    /** Builds a cache, makes it the current one and starts it (in that order: its first events must count). */
    private void startCache() {
        // records are node names: node data (anyone with write access chooses its size) is not kept
        CuratorCache c = CuratorCache.builder(client, providersPath)
                .withStorage(CuratorCacheStorage.dataNotCached())
                .withExceptionHandler(e -> log.warn("Watching {} in ZooKeeper {} failed; will retry on the next "
                        + "change or reconnect: {}", providersPath, registryAddress, e.toString()))
                .build();
        c.listenable().addListener(new CuratorCacheListener() {
            @Override
            public void event(Type type, ChildData oldData, ChildData data) {
                if (c == cache) {
                    schedulePublish();
                }
            }

            @Override
            public void initialized() {
                if (c == cache) {
                    initialized = true;
                    schedulePublish();
                }
            }
        });
        cache = c;
        c.start();
    }

    /**
     * After a reconnect (same session or a new one): reads the folder again with a new cache, and tells the
     * listeners what it holds once it has read all of it. Until then they keep the last list told.
     */
    synchronized void rebuild() {
        if (stopped) {
            return;
        }
        CuratorCache old = cache;
        initialized = false;
        startCache();
        old.close();
        log.debug("Reading {} in {} again after a reconnect", providersPath, registryAddress);
    }

    void schedulePublish() {
        if (!stopped && publishScheduled.compareAndSet(false, true)) {
            try {
                notifier.schedule(this::publish, ZooKeeperRegistry.NOTIFY_DELAY_MS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                publishScheduled.set(false);
            }
        }
    }

    /** On the notifier thread. */
    private void publish() {
        publishScheduled.set(false);
        if (stopped || !initialized) {
            return;
        }
        if (!connected.getAsBoolean()) {
            // Whatever the cache holds now may be stale or partial: tell nothing. RECONNECTED republishes.
            log.debug("Not connected to {}; holding the provider list of {}", registryAddress, service);
            return;
        }
        List<ProviderInfo> providers = readProviders();
        List<ProviderInfo> previous = current;
        current = providers;
        if (!providers.equals(previous)) {
            log.info("Providers of {} in {}: {}", service, registryAddress, providers);
        }
        for (Subscriber s : subscribers) {
            s.tell(service, providers);
        }
    }

    /** On the notifier thread: tells a new subscriber the list, if one is known. */
    void tellCurrent(Subscriber subscriber) {
        List<ProviderInfo> providers = current;
        if (!stopped && providers != null && subscribers.contains(subscriber)) {
            subscriber.tell(service, providers);
        }
    }

    private List<ProviderInfo> readProviders() {
        List<ProviderInfo> result = new ArrayList<>();
        malformedNow.clear();
        int unlistedBefore = unlistedMalformed;
        unlistedMalformed = 0;
        cache.stream().forEach(child -> {
            ZKPaths.PathAndNode pn = ZKPaths.getPathAndNode(child.getPath());
            if (!pn.getPath().equals(providersPath)) {
                return; // the folder itself, or something deeper
            }
            if (dubbo) {
                readDubboProvider(pn.getNode(), result);
                return;
            }
            try {
                ProviderInfo p = ZooKeeperPaths.parseProviderNode(pn.getNode());
                if (!p.service().equals(service)) {
                    throw new IllegalArgumentException("it is a provider of " + p.service() + ", not " + service);
                }
                result.add(p);
            } catch (IllegalArgumentException e) {
                if (firstSight(pn.getNode())) {
                    log.warn("Skipping node {}/{} in ZooKeeper {}: not a provider record of {} ({}); remove it "
                            + "or fix the publisher", providersPath, pn.getNode(), registryAddress, service,
                            e.getMessage());
                }
            }
        });
        warnedMalformed.retainAll(malformedNow);
        malformedNow.clear();
        if (unlistedMalformed > 0 && unlistedMalformed != unlistedBefore) {
            log.warn("{} more malformed nodes in {} in ZooKeeper {} are skipped without a line each (over {}); remove"
                    + " them or fix the publisher", unlistedMalformed, providersPath, registryAddress, MAX_WARNED);
        }
        result.sort(Comparator.comparing(ProviderInfo::toUrl));
        return List.copyOf(result);
    }

    /** Whether a malformed node deserves its warning now: not yet warned, and room to remember it. */
    private boolean firstSight(String node) {
        if (warnedMalformed.contains(node)) {
            malformedNow.add(node);
            return false;
        }
        if (warnedMalformed.size() >= MAX_WARNED) {
            unlistedMalformed++;
            return false;
        }
        malformedNow.add(node);
        return warnedMalformed.add(node);
    }

    /** A node of Dubbo's folder: a provider of this service, one of another version/protocol, or garbage. */
    private void readDubboProvider(String node, List<ProviderInfo> result) {
        try {
            DubboUrls.Parsed parsed = DubboUrls.parseProvider(node, service);
            if (parsed.provider() != null) {
                result.add(parsed.provider());
            } else if (firstSight(node)) {
                log.debug("Not a provider of {} for this reference in {}: {} ({})", service, providersPath,
                        node, parsed.skipped());
            }
        } catch (IllegalArgumentException e) {
            if (firstSight(node)) {
                log.warn("Skipping node {}/{} in ZooKeeper {}: not a Dubbo provider URL ({}); remove it or fix the"
                        + " publisher", providersPath, node, registryAddress, e.getMessage());
            }
        }
    }

    /** Malformed node names remembered (notifier thread only; for tests). */
    int malformedRemembered() {
        return warnedMalformed.size();
    }

    /** Bytes of node data the cache holds (for tests: none is kept). */
    long cachedDataBytes() {
        return cache.stream().mapToLong(c -> c.getData() == null ? 0 : c.getData().length).sum();
    }

    synchronized void close() {
        stopped = true;
        cache.close();
    }

    /** One listener and what it was last told (both touched on the notifier thread only). */
    static final class Subscriber {
        final ProviderListener listener;
        final CountDownLatch told = new CountDownLatch(1);
        List<ProviderInfo> lastTold;

        Subscriber(ProviderListener listener) {
            this.listener = listener;
        }

        void tell(ServiceKey service, List<ProviderInfo> providers) {
            if (!providers.equals(lastTold)) {
                lastTold = providers;
                try {
                    listener.providersChanged(service, providers);
                } catch (RuntimeException e) {
                    log.warn("Provider listener {} failed for {}; it will be told the next change", listener,
                            service, e);
                }
            }
            told.countDown();
        }
    }
}
