package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.RpcContext;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.ThreadlessWait;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

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
    // package-private: read by each call's ClusterAttempts
    final ReferenceConfig<?> config;
    private final Directory directory;
    final ProviderSelection selection;
    final OutlierEjection ejection;
    final RetryBudget retryBudget;
    final Executor callbackExecutor; // where asynchronous callers' futures complete
    /** The serializer of the last provider chosen (what a call reports as its serialization before it picks one). */
    private volatile Serializer usual;
    final int retries;
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
    int attemptTimeoutMillis(Endpoint endpoint, long deadlineNanos) {
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
        ClusterAttempts call = new ClusterAttempts(this, method, args, attachments, deadlineNanos, observer);
        call.caller = caller;
        call.send();
        return call;
    }

    /**
     * Sends the call of an asynchronous proxy method that has no interceptors; the future is the caller's own. As
     * {@link CallerFuture} does ({@link ClusterAttempts.CallerAttempts}), it completes on the callback executor, never on the thread that ends the call (often
     * a Netty event loop), with the value alone, after setting the response's attachments as that thread's
     * {@link RpcContext} received ones (none after a failure).
     */
    CompletableFuture<Object> invokeForCaller(MethodInfo method, Object[] args, Map<String, String> attachments,
            long deadlineNanos) {
        ClusterAttempts call = new ClusterAttempts.CallerAttempts(this, method, args, attachments, deadlineNanos);
        call.send();
        return call;
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
