package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.util.concurrent.CompletableFuture;

/**
 * A service's {@code executes}: at most that many invocations of one method running at once on this
 * provider; a call beyond it is answered "server busy" without running, so failover may send it to
 * another provider. One per service; a call counts until its result (for asynchronous methods, its
 * future) completes.
 */
final class ExecutesInterceptor implements ServerInterceptor {
    private final PerMethodLimit limit;

    ExecutesInterceptor(int max) {
        this.limit = new PerMethodLimit(max);
    }

    @Override
    public CompletableFuture<Object> intercept(Chain chain) {
        return limit.run(chain.call().method(), chain::proceed, () -> chain.call().displayName() + " is running "
                + limit.max() + " times on this provider, its limit (executes=\"" + limit.max()
                + "\" on the service); not run");
    }

    @Override
    public int order() {
        return InterceptorOrder.LIMIT;
    }

    @Override
    public String name() {
        return "executes(" + limit.max() + ")";
    }
}
