package io.kestrel.rpc.api.interceptor;

import java.time.Duration;

/** A call as a {@link ClientInterceptor} sees it on the consumer. */
public interface ClientCallInfo extends CallInfo {
    /**
     * The most time the call may take, in milliseconds, as known when the chain runs: the
     * reference's {@code timeout}, lowered by deadline propagation (the remaining budget of the call
     * this thread is serving) and by {@link #limitTimeout}. {@link #NO_DEADLINE} when none of those
     * set one: the chosen provider's published timeout, else 3 s, applies then.
     */
    long timeoutMillis();

    /**
     * Lowers the call's deadline to at most {@code max} from now; never raises it. Takes effect for
     * the attempts started after it (call it before proceeding).
     *
     * @throws IllegalArgumentException when {@code max} is not positive
     */
    void limitTimeout(Duration max);

    /** True for methods returning {@code CompletableFuture}/{@code CompletionStage}; false for blocking ones. */
    boolean isAsync();
}
