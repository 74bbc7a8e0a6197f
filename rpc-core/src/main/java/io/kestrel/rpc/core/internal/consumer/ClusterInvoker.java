package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends each call to the provider {@link ProviderSelection} chooses and applies the reference's fault tolerance:
 * <ul>
 *   <li>{@code failover} (default): a call that certainly did not run on the provider is retried on
 *       another provider, up to {@code retries} times. Which failures those are is decided by
 *       {@link FailoverRule#retryOf}: not connected / refused / closed before sending, provider busy or
 *       shutting down, service not exported there. Not retried, because the call may have run:
 *       timeouts, a connection lost while the call was in flight; nor exceptions thrown by the
 *       service or bad requests. A reference marked {@code idempotent} opts in to retrying the
 *       may-have-run failures too.</li>
 *   <li>{@code failfast}: the first failure is the call's failure.</li>
 *   <li>{@code failsafe}: failures are logged and the call returns null (for calls whose result does
 *       not matter, such as audit logging).</li>
 * </ul>
 */
final class ClusterInvoker {
    private static final Logger log = LoggerFactory.getLogger(ClusterInvoker.class);

    private final ReferenceConfig<?> config;
    private final Directory directory;
    private final ProviderSelection selection;
    private final OutlierEjection ejection;
    private final RetryBudget retryBudget;
    private final Executor callbackExecutor; // where asynchronous callers' futures complete
    /** The serializer of the last provider chosen (what a call reports as its serialization before it picks one). */
    private volatile Serializer usual;
    private final int retries;
    private final int referenceTimeoutMillis; // 0: the reference sets none
    private volatile int longestTimeoutMillis;
    private final PublishedTimeouts publishedTimeouts;

    ClusterInvoker(ReferenceConfig<?> config, Directory directory, LoadBalance loadBalance, Agreement agreement,
            Executor callbackExecutor) {
        this.config = config;
        this.callbackExecutor = callbackExecutor;
        this.directory = directory;
        this.ejection = new OutlierEjection(config.key(), directory, config.resilience());
        this.retryBudget = new RetryBudget(config.key(), config.resilience());
        this.selection = new ProviderSelection(config, directory, loadBalance, agreement, ejection);
        this.retries = config.cluster() == ClusterMode.FAILOVER ? config.retries() : 0;
        this.referenceTimeoutMillis = config.timeout().map(ClusterInvoker::millis).orElse(0);
        this.longestTimeoutMillis = millis(config.timeout().orElse(ReferenceConfig.DEFAULT_TIMEOUT));
        this.publishedTimeouts = new PublishedTimeouts(config.key());
    }

    /**
     * The deadline of a call to {@code provider}: the reference's timeout if set, else the timeout the provider
     * publishes (its service's, at most {@link io.kestrel.rpc.api.ConsumerLimits#maxProviderTimeoutMillis()}), else
     * {@link ReferenceConfig#DEFAULT_TIMEOUT}. A direct-mode provider publishes none.
     */
    int timeoutMillis(ProviderInfo provider) {
        return referenceTimeoutMillis > 0 ? referenceTimeoutMillis
                : provider.timeout().map(t -> publishedTimeouts.clamp(provider, t))
                        .orElseGet(() -> millis(ReferenceConfig.DEFAULT_TIMEOUT));
    }

    /** The reference's own timeout in milliseconds, 0 when it sets none. */
    int referenceTimeoutMillis() {
        return referenceTimeoutMillis;
    }

    /**
     * The deadline of an attempt sent to this provider, in milliseconds (the timer wheel, the wire and the error
     * message use it); with a call deadline (propagated from the call being served, or set by an interceptor), at
     * most what is left of it; -1 when that has passed. Also notes the provider's serializer as the usual one.
     */
    private int attemptTimeoutMillis(Endpoint endpoint, long deadlineNanos) {
        int timeout = timeoutMillis(endpoint.provider());
        if (deadlineNanos != 0) {
            long remaining = (deadlineNanos - System.nanoTime()) / 1_000_000L;
            if (remaining <= 0) {
                return -1;
            }
            timeout = (int) Math.min(timeout, remaining);
        }
        if (timeout > longestTimeoutMillis) {
            longestTimeoutMillis = timeout;
        }
        Serializer serializer = endpoint.terms().serializer();
        if (serializer != usual) {
            usual = serializer;
        }
        return timeout;
    }

    /**
     * The serialization of the provider last chosen (calls are agreed per provider), before a call has picked its
     * own; null before any provider was chosen.
     */
    String usualSerializationName() {
        Serializer s = usual;
        return s == null ? null : s.name();
    }

    /** The longest deadline a call of this reference has had (at least the reference's or the default). */
    public int longestTimeoutMillis() {
        return longestTimeoutMillis;
    }

    static int millis(Duration d) {
        return (int) Math.min(Integer.MAX_VALUE, d.toMillis());
    }

    public Directory directory() {
        return directory;
    }

    /**
     * Sends the call; the future completes with the result (an {@link io.kestrel.rpc.transport.spi.AttachedValue}
     * when the provider sent response attachments) or the (final) failure; under {@code failsafe}, a failure
     * is logged and the call completes with null.
     *
     * @param deadlineNanos the call's own deadline on {@link System#nanoTime()}'s clock, 0 for none: no
     *     attempt is given more than what is left of it, and none is sent once it has passed
     * @param observer told which provider each attempt goes to (the call passing through interceptors); or null
     */
    public CompletableFuture<Object> invoke(MethodInfo method, Object[] args, Map<String, String> attachments,
            long deadlineNanos, AttemptListener observer) {
        return invoke(method, args, attachments, deadlineNanos, observer, null);
    }

    /**
     * As above, for a blocking caller that will wait for the future on this thread: with its {@code caller} wait
     * (null: none), the attempts it sends are answered on this thread, which decodes them while it waits
     * ({@link ThreadlessWait}), rather than completed on the I/O thread.
     */
    public CompletableFuture<Object> invoke(MethodInfo method, Object[] args, Map<String, String> attachments,
            long deadlineNanos, AttemptListener observer, ThreadlessWait caller) {
        Attempts call = new Attempts(method, args, attachments, deadlineNanos, observer);
        call.caller = caller;
        call.send();
        return call;
    }

    /**
     * Sends the call of an asynchronous proxy method that has no interceptors; the future is the caller's own. As
     * {@link CallerFuture} does, it completes on the callback executor, never on the thread that ends the call (often
     * a Netty event loop), with the value alone, after setting the response's attachments as that thread's
     * {@link RpcContext} received ones (none after a failure).
     */
    CompletableFuture<Object> invokeForCaller(MethodInfo method, Object[] args, Map<String, String> attachments,
            long deadlineNanos) {
        Attempts call = new CallerAttempts(method, args, attachments, deadlineNanos);
        call.send();
        return call;
    }

    /**
     * One call's attempts: the first, and under failover a retry on another provider after each failure that
     * allows one. It is itself the callback of each attempt's answer, so a call costs one future and one
     * callback however many retries the reference allows (before, a wrapping future and callback per call,
     * and with retries a handle/thenCompose chain). It is also the call's future, so that costs no object
     * of its own either; for an asynchronous caller without interceptors it is the caller's future too
     * ({@link CallerAttempts}). Failsafe's null is its own outcome (no exceptionally stage). Each attempt's
     * request is built from its fields by the connection (no request object per call), and a blocking caller
     * waits on it without a waiter node ({@link ParkingFuture}).
     */
    private class Attempts extends ParkingFuture implements BiConsumer<Object, Throwable>, ProviderSelection.Call {
        private final MethodInfo method;
        private final Object[] args;
        private final Map<String, String> attachments;
        private final long deadlineNanos;
        private final AttemptListener observer;
        private Invocation invocation; // what the load balance sees; built when it is first asked
        // the providers that failed, one per retry: its size is the attempt's number, from 0 (no counter field)
        private List<Endpoint> tried = List.of();
        private Endpoint endpoint; // of the attempt in flight
        private Throwable previous;
        private ThreadlessWait caller; // a blocking caller's wait, or null

        Attempts(MethodInfo method, Object[] args, Map<String, String> attachments, long deadlineNanos,
                AttemptListener observer) {
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
                chosen = selection.select(this, tried);
            } catch (NoProviderException e) {
                // after a retriable failure with nobody left to try, the failure itself says most
                fail(previous != null ? previous : e);
                return;
            }
            if (attempt == 0) {
                retryBudget.call();
            }
            int timeout = attemptTimeoutMillis(chosen, deadlineNanos);
            if (timeout < 0) {
                ejection.notSent(chosen, this);
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
                ejection.answered(done, this);
                succeed(value);
                return;
            }
            Throwable failure = explained(error, done.provider(), method.method.getName());
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            ejection.failed(done, this, cause);
            int attempt = tried.size();
            if (attempt >= retries || method.ref.stream() != null) { // a stream is not opened again elsewhere
                fail(failure);
                return;
            }
            Status.Retry retry = FailoverRule.retryOf(cause);
            if (retry != Status.Retry.SAFE && !(config.idempotent() && retry == Status.Retry.IF_IDEMPOTENT)) {
                fail(cause);
                return;
            }
            if (!retryBudget.tryRetry()) {
                retryBudget.refused(method.ref.displayName(), cause);
                fail(cause);
                return;
            }
            log.debug("{} failed on {} ({}); retrying on another provider ({} of {})",
                    method.ref.displayName(), done, cause.getMessage(), attempt + 1, retries);
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
            if (config.cluster() == ClusterMode.FAILSAFE) {
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
                i = new Invocation(config.key(), method.method, args, attachments);
                invocation = i;
            }
            return i;
        }
    }

    /**
     * The attempts of an asynchronous caller's call without interceptors, which are also the caller's future:
     * the outcome is handed to the callback executor and completes the future there. One object per call where a
     * separate {@link CallerFuture} told of the outcome cost a second one (40 bytes).
     */
    private final class CallerAttempts extends Attempts implements Runnable {
        // the value, or the failure as a Failure: one field keeps the object at 72 bytes, as small as Attempts.
        // Written by end before it hands this to the executor, read by run after: the hand-off orders them
        private Object outcome;

        CallerAttempts(MethodInfo method, Object[] args, Map<String, String> attachments, long deadlineNanos) {
            super(method, args, attachments, deadlineNanos, null);
        }

        @Override
        void end(Object value, Throwable error) {
            this.outcome = error != null ? new Failure(error) : value;
            CallerFuture.handOff(callbackExecutor, this, this);
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

    /**
     * A provider does not tell unknown callers what it exports; the consumer adds what the
     * provider's registry record says, which it may know, and the nearest of its methods to the one called.
     *
     * @param methodName the name of the method this call invoked
     */
    static Throwable explained(Throwable e, ProviderInfo provider, String methodName) {
        if (e instanceof ServiceNotFoundException && !provider.methods().isEmpty()) {
            return new ServiceNotFoundException(e.getMessage() + " (this consumer's registry record of "
                    + provider.address() + " lists the methods " + provider.methods()
                    + io.kestrel.rpc.api.internal.NearestName.suggestion(methodName, provider.methods()) + ")");
        }
        return e;
    }

    /** Told of each attempt of a call as it is sent (the interceptors' view of the call reads it). */
    interface AttemptListener {
        /** The attempt goes to the provider at {@code address}, in {@code serialization}. */
        void sentTo(String address, String serialization);
    }
}
