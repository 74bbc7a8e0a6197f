package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.registry.Registries;

/** A runtime's registry, connected on first use (never, in direct-only mode). Thread-safe. */
public final class LazyRegistry implements AutoCloseable {
    private final RegistryConfig config;
    private volatile Registry registry;

    /** @param config null in direct-only mode */
    public LazyRegistry(RegistryConfig config) {
        this.config = config;
    }

    public RegistryConfig config() {
        return config;
    }

    /** The registry, connecting now if needed; null without a registry config. */
    public Registry get() {
        if (config == null) {
            return null;
        }
        Registry r = registry;
        if (r == null) {
            synchronized (this) {
                r = registry;
                if (r == null) {
                    r = Registries.create(config);
                    registry = r;
                }
            }
        }
        return r;
    }

    /** The registry if it was connected, else null; never connects. */
    public Registry ifConnected() {
        return registry;
    }

    @Override
    public void close() {
        Registry r = registry;
        if (r != null) {
            r.close();
        }
    }
}
