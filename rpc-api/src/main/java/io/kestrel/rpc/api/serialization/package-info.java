/**
 * The serialization extension point: {@link io.kestrel.rpc.api.serialization.Serialization}
 * implementations found with {@link java.util.ServiceLoader}, their wire ids, class registration
 * through an optimizer, and the deserialization allowlist every implementation enforces.
 */
package io.kestrel.rpc.api.serialization;
