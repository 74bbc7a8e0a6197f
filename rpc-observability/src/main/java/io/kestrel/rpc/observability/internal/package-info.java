/**
 * Helpers shared by the metrics and tracing interceptors. Not part of the public API; may change
 * without notice.
 */
package io.kestrel.rpc.observability.internal;
