package io.kestrel.rpc.transport.internal;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * The future of a {@link PendingCall} that also tells one listener of its outcome directly, on the
 * thread that completes it: the caller that sent the call learns the answer without a dependent
 * stage (a {@code whenComplete} costs a second future and a completion node per call). The
 * listener is told exactly once, after the future is complete; it must not throw.
 */
public final class CallFuture extends CompletableFuture<Object> {
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
