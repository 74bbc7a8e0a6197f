/**
 * Generic invocation and service metadata: plain trees to declared types and back, the provider's
 * reserved {@code $invoke} and {@code $metadata} methods, the consumer's {@code GenericService} proxy.
 * Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.core.internal.generic;
