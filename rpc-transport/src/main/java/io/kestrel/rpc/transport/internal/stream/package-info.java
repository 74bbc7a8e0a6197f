/**
 * Streams on the native protocol's connection: the stream frames, the consumer's and the provider's side of a
 * stream, their credit windows and the per-connection stream tables. Not part of the public API; may change
 * without notice.
 */
package io.kestrel.rpc.transport.internal.stream;
