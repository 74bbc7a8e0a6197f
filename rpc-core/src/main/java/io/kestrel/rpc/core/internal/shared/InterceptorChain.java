package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.InterceptorException;
import java.util.concurrent.CompletableFuture;

/**
 * One call stepping through its interceptors, then through what they wrap (the cluster on the consumer side, the
 * service on the provider side): the stepping both sides share. An interceptor that throws, or returns null
 * instead of a future, fails the call with an {@link InterceptorException} naming it. The call itself is the
 * chain (no object per step but the {@code Chain} handed to each interceptor).
 *
 * @param <I> the interceptor type of the side
 */
public abstract class InterceptorChain<I> implements CallInfo {
    private final I[] interceptors;

    protected InterceptorChain(I[] interceptors) {
        this.interceptors = interceptors;
    }

    /** Runs the chain from interceptor {@code index} on; past the last one, {@link #proceedPastInterceptors()}. */
    protected final CompletableFuture<Object> proceedFrom(int index) {
        if (index == interceptors.length) {
            return proceedPastInterceptors();
        }
        I interceptor = interceptors[index];
        CompletableFuture<Object> result;
        try {
            result = intercept(interceptor, index);
        } catch (Throwable t) {
            return CompletableFuture.failedFuture(new InterceptorException(side() + " interceptor " + name(interceptor)
                    + " failed on " + displayName() + ": " + t, t));
        }
        if (result == null) {
            return CompletableFuture.failedFuture(new InterceptorException(side() + " interceptor " + name(interceptor)
                    + " returned null instead of a future on " + displayName()));
        }
        return result;
    }

    /** What the interceptors wrap: sends the call (consumer) or runs the service (provider). */
    protected abstract CompletableFuture<Object> proceedPastInterceptors();

    /** Calls {@code interceptor} with the chain from {@code index} on, whose {@code proceed()} goes to {@code index + 1}. */
    protected abstract CompletableFuture<Object> intercept(I interceptor, int index);

    /** The interceptor's own name ({@code name()} of the side's interceptor type). */
    protected abstract String nameOf(I interceptor);

    /** "client" or "server", as error messages name the side. */
    protected abstract String side();

    private String name(I interceptor) {
        try {
            return nameOf(interceptor);
        } catch (RuntimeException e) {
            return interceptor.getClass().getName();
        }
    }
}
