package io.kestrel.rpc.transport.internal;

import io.netty.buffer.ByteBuf;

/**
 * A call whose arguments are already serialized, on its way to the {@link ClientCodec}. The codec
 * owns {@code arguments} from then on (writes or releases it).
 *
 * @param call the pending call this request answers to
 * @param arguments the serialized arguments, back to back
 * @param argumentLengths byte length of every argument but the last
 */
public record OutboundRequest(PendingCall call, ByteBuf arguments, int[] argumentLengths) {
}
