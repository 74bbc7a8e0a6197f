/**
 * The ZooKeeper registry (through Apache Curator) and the in-process {@link
 * io.kestrel.rpc.registry.zookeeper.EmbeddedZooKeeper}. Use {@link io.kestrel.rpc.registry.Registries#create}
 * rather than the classes here directly; the node layout is described on {@link
 * io.kestrel.rpc.registry.zookeeper.ZooKeeperRegistry}.
 */
package io.kestrel.rpc.registry.zookeeper;
