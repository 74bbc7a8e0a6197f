/**
 * The embedded ZooKeeper behind {@code embedded} registries ({@link io.kestrel.rpc.registry.embedded.EmbeddedZooKeeper}):
 * hosting and joining it, the host lock, the user's secret and who may use it. rpc-registry finds it through
 * {@link io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryProvider} ({@link java.util.ServiceLoader}). Apart from
 * {@code EmbeddedZooKeeper.current()} not part of the public API; may change without notice.
 */
package io.kestrel.rpc.registry.embedded;
