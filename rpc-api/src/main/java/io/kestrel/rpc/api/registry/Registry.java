package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.ServiceKey;

/**
 * Publishes providers and tells consumers who provides a service. Thread-safe.
 *
 * <p>Implementations keep registrations and subscriptions alive across connection loss and
 * session expiry (re-registering and re-subscribing by themselves), and keep telling subscribers
 * nothing while the registry is unreachable, so consumers go on with the last known list.
 */
public interface Registry extends AutoCloseable {
    /** The registry's address as configured, for error messages, e.g. "zookeeper://127.0.0.1:2181". */
    String address();

    /**
     * Whether the registry is reachable now (for health checks and metrics); while it is not,
     * registrations and subscriptions are kept and consumers go on with the last known providers.
     * Default: true.
     */
    default boolean connected() {
        return true;
    }

    /** Publishes a provider until {@link #unregister} or {@link #close}. */
    void register(ProviderInfo provider);

    /** Removes a published provider; no-op if it was not registered. */
    void unregister(ProviderInfo provider);

    /** Starts telling {@code listener} the providers of {@code service}, beginning with the current list. */
    void subscribe(ServiceKey service, ProviderListener listener);

    void unsubscribe(ServiceKey service, ProviderListener listener);

    /** Unregisters everything this instance registered, stops subscriptions and releases resources. */
    @Override
    void close();
}
