/**
 * The ZooKeeper registry (through Apache Curator), and the client side of {@code embedded} registries, whose
 * server comes from rpc-registry-embedded ({@link io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryProvider}). Use
 * {@link io.kestrel.rpc.api.registry.Registries#create} rather than the classes here directly; the node layout is
 * described on {@link io.kestrel.rpc.registry.zookeeper.ZooKeeperRegistry}.
 */
package io.kestrel.rpc.registry.zookeeper;
