/**
 * The registry extension point: providers publish a {@link io.kestrel.rpc.api.registry.ProviderInfo},
 * consumers subscribe to the list for a service. Implementations are found with
 * {@link java.util.ServiceLoader} through {@link io.kestrel.rpc.api.registry.RegistryFactory}.
 */
package io.kestrel.rpc.api.registry;
