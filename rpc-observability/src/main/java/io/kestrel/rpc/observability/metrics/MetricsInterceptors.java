package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import java.util.concurrent.CompletableFuture;

/**
 * The two timing interceptors. Each records the call's duration from entering the interceptor to the
 * completion of its future, with the outcome the caller sees; it adds one {@code whenComplete}
 * callback per call and never changes the result.
 */
final class MetricsInterceptors {
    private MetricsInterceptors() {
    }

    /** Consumer side: {@code rpc.client.duration}; also tells the runtime gauges which providers it calls. */
    static final class Client implements ClientInterceptor {
        private final CallTimers timers;
        private final KestrelMetrics owner;

        Client(CallTimers timers, KestrelMetrics owner) {
            this.timers = timers;
            this.owner = owner;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            long start = System.nanoTime();
            return chain.proceed().whenComplete((value, error) -> {
                timers.record(chain.call(), error, System.nanoTime() - start);
                owner.calledProvider(chain.call().peerAddress());
            });
        }

        @Override
        public int order() {
            return KestrelMetrics.ORDER;
        }

        @Override
        public String name() {
            return "metrics (rpc.client.duration)";
        }
    }

    /** Provider side: {@code rpc.server.duration}. */
    static final class Server implements ServerInterceptor {
        private final CallTimers timers;

        Server(CallTimers timers) {
            this.timers = timers;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            long start = System.nanoTime();
            return chain.proceed().whenComplete((value, error) -> timers.record(chain.call(), error, System.nanoTime() - start));
        }

        @Override
        public int order() {
            return KestrelMetrics.ORDER;
        }

        @Override
        public String name() {
            return "metrics (rpc.server.duration)";
        }
    }
}
