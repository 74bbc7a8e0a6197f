/**
 * Registry entry point: {@link io.kestrel.rpc.registry.Registries#create} picks a
 * {@link io.kestrel.rpc.api.registry.RegistryFactory} by the address scheme. The ZooKeeper implementation
 * and the embedded ZooKeeper launcher live in {@code io.kestrel.rpc.registry.zookeeper}.
 */
package io.kestrel.rpc.registry;
