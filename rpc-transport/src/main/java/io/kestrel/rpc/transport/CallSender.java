package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.internal.PendingCall;
import io.kestrel.rpc.transport.internal.RequestEncoder;
import io.kestrel.rpc.transport.internal.WriteQueue;
import io.kestrel.rpc.transport.internal.dubbo.DubboRequestEncoder;
import io.kestrel.rpc.transport.internal.stream.ClientStream;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * How a {@link Connection} sends a call: the checks before it is sent (state, writability, pending calls, payload
 * limit; a call that fails one is not sent and says why), its serialization on the calling thread, and for a
 * streaming method the stream it opens. Thread-safe.
 */
final class CallSender {
    private final Connection conn;
    private final String address;

    CallSender(Connection conn) {
        this.conn = conn;
        this.address = conn.address();
    }

    /** See {@link Connection#invoke(MethodRef, Serializer, Object[], Map, int, Class, BiConsumer, ThreadlessWait)}. */
    CompletableFuture<Object> invoke(MethodRef methodRef, Serializer serializer, Object[] arguments,
            Map<String, String> attachments, int timeoutMillis, Class<?> returnType,
            BiConsumer<Object, Throwable> listener, ThreadlessWait caller) {
        if (methodRef.stream() == null) {
            return send(methodRef, serializer, arguments, attachments, timeoutMillis, returnType, listener, null,
                    caller);
        }
        // a streaming method: the call opens the stream in its arguments, and ends it when it ends
        ClientStream stream = ClientStream.in(methodRef, arguments);
        CompletableFuture<Object> call = conn.options().dubbo()
                ? Unsent.refused(listener, new RpcException(methodRef.displayName() + " is a streaming method; the dubbo"
                        + " protocol carries no streams (use the native protocol); the call was not sent"))
                : conn.transport.streamsRefused() ? Unsent.refused(listener, new RpcException("this consumer is shutting"
                        + " down: the stream of " + methodRef.displayName() + " was not opened"))
                : send(methodRef, serializer, ClientStream.wireArguments(methodRef, arguments), attachments,
                        timeoutMillis, returnType, listener, stream, null);
        call.whenComplete(stream::callEnded);
        return call;
    }

    private CompletableFuture<Object> send(MethodRef methodRef, Serializer serializer, Object[] arguments,
            Map<String, String> attachments, int timeoutMillis, Class<?> returnType,
            BiConsumer<Object, Throwable> listener, ClientStream stream, ThreadlessWait caller) {
        String method = methodRef.displayName();
        if (conn.state() == ConnectionState.CLOSED) {
            return Unsent.notSent(listener, "connection to provider " + address + " is closed; the call " + method + " was not sent");
        }
        if (conn.firstAttemptDone.getCount() > 0 && !conn.transport.inEventLoop()) {
            // a provider that just appeared: give its first connection (and handshake) the connect
            // timeout rather than failing the call that happens to come first
            conn.awaitFirstConnect();
        }
        ConnectionState s = conn.state();
        Channel ch = conn.channel;
        WriteQueue<Object> queue = conn.writes;
        if (s == ConnectionState.DRAINING || s == ConnectionState.RETIRING || s == ConnectionState.CLOSED) {
            return Unsent.notSent(listener, "provider " + address + " is shutting down; the call " + method + " was not sent");
        }
        if (s != ConnectionState.READY || ch == null || !ch.isActive() || queue == null) {
            return Unsent.notSent(listener, "not connected to provider " + address + (s == ConnectionState.HANDSHAKING
                    ? " (connected, waiting for its handshake answer" : " (reconnecting") + "; last error: " + conn.lastError
                    + "); the call " + method + " was not sent");
        }
        if (!ch.isWritable()) { // the provider does not read: do not buffer without bound
            return Unsent.notSent(listener, "provider " + address + " is not reading its connection (" + ch.bytesBeforeWritable()
                    + " bytes to drain before it takes more); the call " + method + " was not sent");
        }
        if (!conn.pending.reserve()) {
            return Unsent.refused(listener, new ServerBusyException(conn.pending.max() + " calls are already pending"
                    + " on the connection to " + address + " (the reference's max-pending); the call " + method
                    + " was not sent. The provider is slow or the consumer sends faster than it can answer"));
        }
        ByteBuf bytes;
        int[] lengths = null;
        try {
            // the dubbo protocol's body is one stream (head, arguments, attachments): a codec of its own writes it
            if (conn.options().dubbo()) {
                bytes = DubboRequestEncoder.encode(ch.alloc(), new RpcRequest(methodRef, serializer, arguments,
                        attachments, timeoutMillis, returnType));
            } else {
                lengths = RequestEncoder.lengthsFor(arguments);
                bytes = RequestEncoder.serializeArguments(ch.alloc(), methodRef, serializer, arguments, lengths);
            }
        } catch (SerializationException e) {
            conn.pending.unreserve();
            return Unsent.refused(listener, e);
        }
        int size = bytes.readableBytes();
        if (size > conn.options().connection().payloadBytes()) {
            bytes.release();
            conn.pending.unreserve();
            return Unsent.refused(listener, new PayloadTooLargeException("request " + method + " to " + address
                    + " has " + size + " bytes of arguments, over the payload limit of " + conn.options().connection().payloadBytes()
                    + " bytes; it was not sent. Send less data or raise payload on both sides"));
        }
        PendingCall call = conn.pending.add(methodRef, serializer, arguments, attachments, timeoutMillis, returnType,
                listener);
        call.attachArguments(bytes, lengths);
        call.answerOn(caller); // before it is queued: the queue publishes it to the I/O thread
        try {
            if (stream != null) {
                stream.bind(call, ch, queue, conn.pending.streams(), conn.options().connection().payloadBytes());
            }
            queue.enqueueUrgent(call); // before stream data queued meanwhile: a unary call does not wait for it
            if (stream != null) {
                stream.sent();
            }
        } catch (IllegalStateException e) { // a stream opened twice (bind): the call is not sent
            Unsent.fail(call, e);
        } catch (RejectedExecutionException e) {
            Unsent.fail(call, new ConnectionUnavailableException("connection to " + address + " is shutting down; the call "
                    + method + " was not sent", e));
        }
        return call;
    }
}
