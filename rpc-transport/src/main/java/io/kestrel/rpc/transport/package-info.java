/**
 * The transport: a Netty server ({@link io.kestrel.rpc.transport.RpcServer}) and one multiplexed client connection
 * per provider address ({@link io.kestrel.rpc.transport.ClientTransport}, {@link io.kestrel.rpc.transport.Connection}),
 * speaking the frame format documented on {@link io.kestrel.rpc.transport.internal.FrameDecoder}, with the wire's
 * {@link io.kestrel.rpc.transport.Status}. What the invocation layer plugs in and hands over is the seam in
 * {@code io.kestrel.rpc.transport.spi}; {@code internal} is the transport's own. Knows nothing of Spring or ZooKeeper.
 */
package io.kestrel.rpc.transport;
