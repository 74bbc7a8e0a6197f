package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.transport.spi.AttachedValue;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * The future an asynchronous proxy method (one returning {@link CompletableFuture}) hands its caller, and
 * the listener of that call's outcome. Told the outcome on whichever thread ends the call (often a Netty
 * event loop), it runs itself on the callback executor and completes there, so the caller's callbacks
 * never run on an event loop; before it completes, it sets the received attachments of that thread's
 * {@link RpcContext}, so a callback reads the response's attachments there.
 *
 * <p>One object per asynchronous call where {@code whenCompleteAsync} cost four (the caller's future, the
 * completion, the completion's own dependent future and a capturing lambda). Used for calls through
 * interceptors and generic {@code $invokeAsync}; a call without interceptors needs not even this one, as
 * the cluster's attempts complete the same way themselves ({@code ClusterAttempts.CallerAttempts}).
 */
final class CallerFuture extends CompletableFuture<Object> implements BiConsumer<Object, Throwable>, Runnable {
    private final Executor callbackExecutor;
    private final ClientCall call; // null: the response attachments travel with the value (no interceptors)
    private final boolean setsContext;
    // written by accept before it hands this to the executor, read by run after: the hand-off orders them
    private Object value;
    private Throwable error;

    /**
     * @param call the call passing through interceptors, whose response attachments the context receives; null
     *     when there are none and the attachments come with the value ({@link AttachedValue})
     * @param setsContext whether to set the received attachments of the completing thread's {@link RpcContext}
     */
    CallerFuture(Executor callbackExecutor, ClientCall call, boolean setsContext) {
        this.callbackExecutor = callbackExecutor;
        this.call = call;
        this.setsContext = setsContext;
    }

    /** The call's outcome, on the thread that ended it; completes this future on the callback executor. */
    @Override
    public void accept(Object value, Throwable error) {
        this.value = value;
        this.error = error;
        handOff(callbackExecutor, this, this);
    }

    /** On the callback executor. */
    @Override
    public void run() {
        completeHere(this, value, error, call, setsContext);
    }

    /**
     * Runs {@code completion} on the callback executor (on this thread when the runtime's callbacks are
     * {@code direct}: {@link CallbackPool#direct}); if the executor refuses it (shut down: the runtime is
     * closing), fails {@code future} here rather than leave the caller waiting.
     */
    static void handOff(Executor callbackExecutor, Runnable completion, CompletableFuture<Object> future) {
        if (callbackExecutor instanceof CallbackPool.Direct) {
            completion.run(); // the application says its callbacks never block (callbacks=direct)
            return;
        }
        try {
            callbackExecutor.execute(completion);
        } catch (RejectedExecutionException e) {
            future.completeExceptionally(new RpcException("the callback executor refused to complete an asynchronous call",
                    e));
        }
    }

    /**
     * On the callback executor: sets this thread's {@link RpcContext} received attachments (when {@code setsContext};
     * none after a failure) and completes {@code future}, whose caller-registered callbacks run inside, here.
     *
     * @param call the call through interceptors whose response attachments are received; null: they travel with
     *     the value ({@link AttachedValue})
     */
    static void completeHere(CompletableFuture<Object> future, Object value, Throwable error, ClientCall call,
            boolean setsContext) {
        RpcContext here = setsContext ? RpcContext.current() : null;
        if (error != null) {
            if (here != null) {
                here.received(Map.of());
            }
            future.completeExceptionally(error);
        } else {
            if (here != null) {
                here.received(call != null ? call.responseAttachments() : AttachedValue.attachmentsOf(value));
            }
            future.complete(AttachedValue.valueOf(value));
        }
    }
}
