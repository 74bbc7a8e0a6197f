package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.transport.internal.CallFuture;
import io.kestrel.rpc.transport.internal.PendingCall;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/** The send path's refusals: calls of a {@link Connection} that fail without being sent. */
final class Unsent {
    private Unsent() {
    }

    /** Not sent because the connection cannot take it now: {@link ConnectionUnavailableException}. */
    static CompletableFuture<Object> notSent(BiConsumer<Object, Throwable> listener, String message) {
        return refused(listener, new ConnectionUnavailableException(message));
    }

    /** A call not sent: its future fails at once and the listener hears it through the same rule as an answer's. */
    static CompletableFuture<Object> refused(BiConsumer<Object, Throwable> listener, Throwable error) {
        CallFuture refused = new CallFuture(listener);
        refused.completeExceptionally(error);
        return refused;
    }

    /** A pending call that was not (or will never be) written: its argument bytes are released and it fails. */
    static void fail(PendingCall call, Throwable error) {
        ByteBuf unsent = call.takeArgumentBytes();
        if (unsent != null) {
            unsent.release();
        }
        call.fail(error);
    }
}
