/**
 * Invocation internals, in two sides and what they share: {@code consumer} (proxies, the cluster invoker, directories
 * of providers), {@code provider} (exports and the dispatcher of exported methods), {@code shared} (interceptor
 * chains, serializers, the facts a provider publishes, signature checks, addresses) and {@code generic} (generic
 * calls' trees). The two sides never import each other. Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.core.internal;
