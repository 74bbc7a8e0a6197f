package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.transport.RpcRequest;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One call sent (or about to be sent) and not yet answered. Whoever ends it first — its response,
 * its deadline, a failed write or the connection closing — removes it from its {@link PendingCalls}
 * table; the others find it gone and do nothing.
 */
public final class PendingCall {
    final PendingCalls table;
    final long id;
    /** The table's key, boxed once: adding and failing the call box no id of their own. */
    final Long key;
    final RpcRequest request;
    final CompletableFuture<Object> future;
    final long startNanos = System.nanoTime();
    final long deadlineNanos;
    /** Set once it has left its table (read where a lookup by id would box it again). */
    volatile boolean ended;

    PendingCall(PendingCalls table, long id, RpcRequest request, BiConsumer<Object, Throwable> listener) {
        this.future = new CallFuture(listener);
        this.table = table;
        this.id = id;
        this.key = id;
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
        return !ended;
    }

    /** Ends the call with {@code error} if it is still pending. */
    public void fail(Throwable error) {
        if (table.remove(this)) {
            future.completeExceptionally(error);
        }
    }
}
