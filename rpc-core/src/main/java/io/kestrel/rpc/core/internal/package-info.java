/**
 * Invocation internals: proxies, the provider-side dispatcher, directories of providers and the
 * cluster invoker. Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.core.internal;
