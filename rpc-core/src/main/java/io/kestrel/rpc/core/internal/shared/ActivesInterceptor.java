package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import java.util.concurrent.CompletableFuture;

/**
 * A reference's {@code actives}: at most that many calls of one method in flight from this consumer;
 * a call beyond it fails at once, unsent, with {@code ServerBusyException}. One per reference.
 */
final class ActivesInterceptor implements ClientInterceptor {
    private final PerMethodLimit limit;

    ActivesInterceptor(int max) {
        this.limit = new PerMethodLimit(max);
    }

    @Override
    public CompletableFuture<Object> intercept(Chain chain) {
        return limit.run(chain.call().method(), chain::proceed, () -> chain.call().displayName() + " was not sent: "
                + limit.max() + " calls of it are in flight from this consumer, its limit (actives=\"" + limit.max()
                + "\" on the reference); raise it or slow the callers down");
    }

    @Override
    public int order() {
        return InterceptorOrder.LIMIT;
    }

    @Override
    public String name() {
        return "actives(" + limit.max() + ")";
    }
}
