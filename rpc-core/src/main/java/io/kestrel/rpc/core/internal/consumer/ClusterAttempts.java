package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One call's attempts through a {@link ClusterInvoker}: the first, and under failover a retry on another provider after each failure that
 * allows one. It is itself the callback of each attempt's answer, so a call costs one future and one
 * callback however many retries the reference allows (before, a wrapping future and callback per call,
 * and with retries a handle/thenCompose chain). It is also the call's future, so that costs no object
 * of its own either; for an asynchronous caller without interceptors it is the caller's future too
 * ({@link CallerAttempts}). Failsafe's null is its own outcome (no exceptionally stage). Each attempt's
 * request is built from its fields by the connection (no request object per call), and a blocking caller
 * waits on it without a waiter node ({@link ParkingFuture}).
 */
class ClusterAttempts extends ParkingFuture implements BiConsumer<Object, Throwable>, ProviderSelection.Call {
    private static final Logger log = LoggerFactory.getLogger(ClusterInvoker.class);

    final ClusterInvoker cluster;
    private final MethodInfo method;
    private final Object[] args;
    private final Map<String, String> attachments;
    private final long deadlineNanos;
    private final ClusterInvoker.AttemptListener observer;
    private Invocation invocation; // what the load balance sees; built when it is first asked
    // the providers that failed, one per retry: its size is the attempt's number, from 0 (no counter field)
    private List<Endpoint> tried = List.of();
    private Endpoint endpoint; // of the attempt in flight
    private Throwable previous;
    ThreadlessWait caller; // a blocking caller's wait, or null

    ClusterAttempts(ClusterInvoker cluster, MethodInfo method, Object[] args, Map<String, String> attachments,
            long deadlineNanos, ClusterInvoker.AttemptListener observer) {
        this.cluster = cluster;
        this.method = method;
        this.args = args;
        this.attachments = attachments;
        this.deadlineNanos = deadlineNanos;
        this.observer = observer;
    }

    void send() {
        int attempt = tried.size();
        Endpoint chosen;
        try {
            chosen = cluster.selection.select(this, tried);
        } catch (NoProviderException e) {
            // after a retriable failure with nobody left to try, the failure itself says most
            fail(previous != null ? previous : e);
            return;
        }
        if (attempt == 0) {
            cluster.retryBudget.call();
        }
        int timeout = cluster.attemptTimeoutMillis(chosen, deadlineNanos);
        if (timeout < 0) {
            cluster.ejection.notSent(chosen, this);
            fail(new RpcTimeoutException(method.ref.displayName() + " was not sent"
                    + (attempt > 0 ? " again (attempt " + (attempt + 1) + ")" : "") + ": its deadline passed "
                    + (System.nanoTime() - deadlineNanos) / 1_000_000L + " ms ago. It is the remaining time of the"
                    + " call this thread serves (propagate-deadline=\"false\" on the reference keeps the reference's"
                    + " own timeout) or one an interceptor set"));
            return;
        }
        Serializer serializer = chosen.terms().serializer();
        if (observer != null) {
            observer.sentTo(chosen.address(), serializer.name());
        }
        endpoint = chosen;
        chosen.active.incrementAndGet();
        // told the outcome directly: no dependent stage per call
        // sent by the blocking caller (a first attempt, or a retry it decoded the reason for): answered on its thread
        ThreadlessWait answerOn = caller != null && caller.isCurrentThread() ? caller : null;
        chosen.connection().invoke(method.ref, serializer, args, attachments, timeout, method.resultType, this,
                answerOn);
    }

    @Override
    ThreadlessWait threadless() {
        return caller;
    }

    /** The answer of the attempt in flight. */
    @Override
    public void accept(Object value, Throwable error) {
        Endpoint done = endpoint;
        // the count drops before anything downstream (the caller included) sees the outcome, or the caller's
        // next call could be balanced while this finished call still counted as active
        done.active.decrementAndGet();
        if (error == null) {
            cluster.ejection.answered(done, this);
            succeed(value);
            return;
        }
        Throwable failure = ClusterInvoker.explained(error, done.provider(), method.method.getName());
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        cluster.ejection.failed(done, this, cause);
        int attempt = tried.size();
        if (attempt >= cluster.retries || method.ref.stream() != null) { // a stream is not opened again elsewhere
            fail(failure);
            return;
        }
        Status.Retry retry = FailoverRule.retryOf(cause);
        if (retry != Status.Retry.SAFE && !(cluster.config.idempotent() && retry == Status.Retry.IF_IDEMPOTENT)) {
            fail(cause);
            return;
        }
        if (!cluster.retryBudget.tryRetry()) {
            cluster.retryBudget.refused(method.ref.displayName(), cause);
            fail(cause);
            return;
        }
        log.debug("{} failed on {} ({}); retrying on another provider ({} of {})",
                method.ref.displayName(), done, cause.getMessage(), attempt + 1, cluster.retries);
        if (tried.isEmpty()) {
            tried = new ArrayList<>(2);
        }
        tried.add(done);
        previous = cause;
        send();
    }

    private void succeed(Object value) {
        end(value, null);
    }

    /** The call's final failure; under failsafe, logged, and the call returns null. */
    private void fail(Throwable error) {
        if (cluster.config.cluster() == ClusterMode.FAILSAFE) {
            log.warn("failsafe: {} failed and returns null: {}", method.ref.displayName(), error.toString());
            succeed(null);
        } else {
            end(null, error);
        }
    }

    /** The call's outcome, once: completes this future on the thread that ended the call. */
    void end(Object value, Throwable error) {
        if (error != null) {
            completeExceptionally(error);
        } else {
            complete(value);
        }
    }

    @Override
    public Invocation invocation() {
        Invocation i = invocation;
        if (i == null) {
            i = new Invocation(cluster.config.key(), method.method, args, attachments);
            invocation = i;
        }
        return i;
    }

    /**
     * The attempts of an asynchronous caller's call without interceptors, which are also the caller's future:
     * the outcome is handed to the callback executor and completes the future there. One object per call where a
     * separate {@link CallerFuture} told of the outcome cost a second one (40 bytes).
     */
    static final class CallerAttempts extends ClusterAttempts implements Runnable {
        // the value, or the failure as a Failure: one field keeps the object at 72 bytes, as small as ClusterAttempts.
        // Written by end before it hands this to the executor, read by run after: the hand-off orders them
        private Object outcome;

        CallerAttempts(ClusterInvoker cluster, MethodInfo method, Object[] args, Map<String, String> attachments,
                long deadlineNanos) {
            super(cluster, method, args, attachments, deadlineNanos, null);
        }

        @Override
        void end(Object value, Throwable error) {
            this.outcome = error != null ? new Failure(error) : value;
            CallerFuture.handOff(cluster.callbackExecutor, this, this);
        }

        /** On the callback executor: completes as a {@link CallerFuture} does. */
        @Override
        public void run() {
            Object v = outcome;
            if (v instanceof Failure f) {
                CallerFuture.completeHere(this, null, f.error(), null, true);
            } else {
                CallerFuture.completeHere(this, v, null, null, true);
            }
        }
    }

    /** A call's final failure on its way to the callback executor (a value may itself be a Throwable). */
    private record Failure(Throwable error) {
    }
}
