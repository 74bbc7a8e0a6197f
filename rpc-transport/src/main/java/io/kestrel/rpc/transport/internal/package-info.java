/**
 * Netty handlers and codecs for the RPC wire format. Not part of the public API; may change
 * without notice.
 */
package io.kestrel.rpc.transport.internal;
