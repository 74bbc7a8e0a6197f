/**
 * The transport: a Netty server and one multiplexed client connection per provider address,
 * speaking the frame format documented on {@link io.kestrel.rpc.transport.internal.FrameDecoder}.
 * Knows nothing of Spring or ZooKeeper.
 */
package io.kestrel.rpc.transport;
