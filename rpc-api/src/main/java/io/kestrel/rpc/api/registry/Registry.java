package io.kestrel.rpc.api.registry;

import io.kestrel.rpc.api.ServiceKey;
import java.util.List;

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

    /** Publishes a provider until {@link #unregister} or {@link #close}. */
    void register(ProviderInfo provider);

    /** Removes a published provider; no-op if it was not registered. */
    void unregister(ProviderInfo provider);

    /** Starts telling {@code listener} the providers of {@code service}, beginning with the current list. */
    void subscribe(ServiceKey service, ProviderListener listener);

    void unsubscribe(ServiceKey service, ProviderListener listener);

    /**
     * Starts telling {@code listener} the providers of {@code service} that speak {@code protocol}, where that
     * protocol's providers are published (for "dubbo": Dubbo's own layout, stock Dubbo providers included).
     * The native protocol ({@link ProviderInfo#NATIVE_PROTOCOL}) is {@link #subscribe(ServiceKey, ProviderListener)}.
     *
     * @throws UnsupportedOperationException if this registry cannot list providers of that protocol (the default
     *     for every protocol but the native one)
     */
    default void subscribe(ServiceKey service, String protocol, ProviderListener listener) {
        if (!ProviderInfo.NATIVE_PROTOCOL.equals(protocol)) {
            throw new UnsupportedOperationException("registry " + address() + " (" + getClass().getName()
                    + ") cannot list providers of protocol '" + protocol + "'");
        }
        subscribe(service, listener);
    }

    /** Stops what {@link #subscribe(ServiceKey, String, ProviderListener)} started; no-op if nothing was. */
    default void unsubscribe(ServiceKey service, String protocol, ProviderListener listener) {
        if (ProviderInfo.NATIVE_PROTOCOL.equals(protocol)) {
            unsubscribe(service, listener);
        }
    }

    /**
     * Records a consumer of a service until {@link #unregisterConsumer} or {@link #close} (kept across session
     * expiry like a provider). Recording the same consumer again counts: it stays until unregistered as many
     * times. Never fails a reference: a registry that cannot record it logs why. Default: records nothing.
     */
    default void registerConsumer(ConsumerInfo consumer) {
    }

    /** Removes one registration of a recorded consumer; no-op if it was not recorded. Default: nothing. */
    default void unregisterConsumer(ConsumerInfo consumer) {
    }

    /**
     * The consumers of {@code service} recorded now, read from the registry (not cached).
     *
     * @throws UnsupportedOperationException if this registry does not record consumers (the default)
     * @throws io.kestrel.rpc.api.RegistryException if the registry cannot be read
     */
    default List<ConsumerInfo> consumers(ServiceKey service) {
        throw new UnsupportedOperationException("registry " + address() + " (" + getClass().getName()
                + ") does not record consumers");
    }

    /**
     * Whether the registry is reachable now (health checks and metrics); while it is not, registrations
     * and subscriptions are kept and consumers go on with the last known providers. Default true, for
     * registries that cannot tell.
     */
    default boolean isConnected() {
        return true;
    }

    /**
     * The services of this interface that have at least one provider now, whatever their version and
     * group: for messages when a consumer finds no provider of its own version and group. A read-only
     * query, made only when a consumer has no provider; it may block up to the registry's connection
     * timeout. Default: empty (the implementation cannot tell).
     *
     * @return keys sorted by their text; empty when none or unknown
     */
    default java.util.List<ServiceKey> registeredVersions(String interfaceName) {
        return java.util.List.of();
    }

    /** Unregisters everything this instance registered, stops subscriptions and releases resources. */
    @Override
    void close();
}
