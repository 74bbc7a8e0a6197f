package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryProvider;

/**
 * The embedded ZooKeeper for rpc-registry's {@code embedded} registries ({@link EmbeddedZooKeeper}). Listed in
 * {@code META-INF/services}; thread-safe.
 */
public final class EmbeddedProvider implements EmbeddedRegistryProvider {
    /** Public no-arg constructor for {@link java.util.ServiceLoader}. */
    public EmbeddedProvider() {
    }

    @Override
    public Member join(int port) {
        return EmbeddedZooKeeper.acquire(port);
    }
}
