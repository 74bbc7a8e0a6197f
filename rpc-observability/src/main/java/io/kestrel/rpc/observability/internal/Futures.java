package io.kestrel.rpc.observability.internal;

import java.util.concurrent.CompletableFuture;

/** What the observing interceptors ask of the future the rest of a chain returned. */
public final class Futures {
    private Futures() {
    }

    /**
     * Whether {@code result} has already completed normally, as a provider's blocking method's has when
     * the chain returns: an interceptor then ends its measurement at once and returns the same future,
     * instead of a {@code whenComplete} callback and the second future it makes.
     */
    public static boolean succeeded(CompletableFuture<?> result) {
        return result.isDone() && !result.isCompletedExceptionally();
    }
}
