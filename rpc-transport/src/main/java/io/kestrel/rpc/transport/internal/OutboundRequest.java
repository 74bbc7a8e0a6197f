package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.MethodRef;
import io.netty.buffer.ByteBuf;
import java.util.Map;

/** A request whose arguments are already serialized, waiting in the write queue. */
public record OutboundRequest(long requestId, byte serializationId, MethodRef method, int timeoutMillis,
        Map<String, String> attachments, ByteBuf arguments, int[] argumentLengths) {
}
