/**
 * The ZooKeeper server behind {@code embedded} registries, found by rpc-registry through
 * {@link java.util.ServiceLoader}. Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.registry.embedded;
