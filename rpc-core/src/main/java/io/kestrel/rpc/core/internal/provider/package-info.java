/**
 * The provider side of a runtime: exports, their registry records, and the dispatcher of exported methods (caller
 * checks, dispatch rule, interceptors around the service). Knows nothing of the consumer side. Not part of the
 * public API; may change without notice.
 */
package io.kestrel.rpc.core.internal.provider;
