package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.RpcRequest;
import java.util.concurrent.CompletableFuture;

/**
 * One call sent (or about to be sent) and not yet answered. Whoever ends it first — its response,
 * its deadline, a failed write or the connection closing — removes it from its {@link PendingCalls}
 * table; the others find it gone and do nothing.
 */
public final class PendingCall {
    final PendingCalls table;
    final long id;
    final RpcRequest request;
    final CompletableFuture<Object> future = new CompletableFuture<>();
    final long startNanos = System.nanoTime();
    final long deadlineNanos;

    PendingCall(PendingCalls table, long id, RpcRequest request) {
        this.table = table;
        this.id = id;
        this.request = request;
        this.deadlineNanos = startNanos + request.timeoutMillis() * 1_000_000L;
    }

    public long id() {
        return id;
    }

    public RpcRequest request() {
        return request;
    }

    /** Completes with the provider's result: the value, or the exception it threw. */
    public CompletableFuture<Object> future() {
        return future;
    }

    /** Still waiting for its answer (not timed out, failed or answered). */
    public boolean isPending() {
        return table.contains(this);
    }

    /** Ends the call with {@code error} if it is still pending. */
    public void fail(Throwable error) {
        if (table.remove(this)) {
            future.completeExceptionally(error);
        }
    }
}
