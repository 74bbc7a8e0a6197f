/**
 * Streaming calls declared in plain Java interfaces: a method taking a {@link io.kestrel.rpc.api.stream.StreamObserver}
 * as its last parameter streams answers (server streaming); one that also returns a {@code StreamObserver} streams
 * requests too (client streaming and bidirectional). Native protocol only; see {@code docs/streaming.md}.
 */
package io.kestrel.rpc.api.stream;
