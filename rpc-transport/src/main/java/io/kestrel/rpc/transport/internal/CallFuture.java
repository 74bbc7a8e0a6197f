package io.kestrel.rpc.transport.internal;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * A call's future that also tells the caller's listener of the outcome: directly, on the thread that
 * completes it, exactly once, after the future is complete. A {@link PendingCall} is one; a call refused
 * before it was sent (not connected, too many pending, arguments that cannot be written) gets a plain
 * one, so its listener hears of it through the same rule. The listener must not throw.
 */
public class CallFuture extends CompletableFuture<Object> {
    private final BiConsumer<Object, Throwable> listener; // null: none

    public CallFuture(BiConsumer<Object, Throwable> listener) {
        this.listener = listener;
    }

    @Override
    public boolean complete(Object value) {
        if (!super.complete(value)) {
            return false;
        }
        if (listener != null) {
            listener.accept(value, null);
        }
        return true;
    }

    @Override
    public boolean completeExceptionally(Throwable error) {
        if (!super.completeExceptionally(error)) {
            return false;
        }
        if (listener != null) {
            listener.accept(null, error);
        }
        return true;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        if (!super.cancel(mayInterruptIfRunning)) {
            return false;
        }
        if (listener != null) {
            listener.accept(null, new CancellationException("the call's future was cancelled"));
        }
        return true;
    }
}
