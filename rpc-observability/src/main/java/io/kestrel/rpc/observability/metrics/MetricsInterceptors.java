package io.kestrel.rpc.observability.metrics;

import io.kestrel.rpc.api.interceptor.ClientCallInfo;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.observability.internal.Futures;
import java.util.concurrent.CompletableFuture;

/**
 * The two timing interceptors. Each records the call's duration from entering the interceptor to the
 * completion of its future, with the outcome the caller sees, and never changes the result: a future
 * already completed normally when the rest of the chain returns (a provider's blocking method) is
 * timed at once and returned as it is; any other gets one {@code whenComplete} callback. A stream is timed until it
 * ends and its messages counted ({@link StreamMeters}), through a stream listener instead.
 */
final class MetricsInterceptors {
    private MetricsInterceptors() {
    }

    /** Consumer side: {@code rpc.client.duration}; also tells the runtime gauges which providers it calls. */
    static final class Client implements ClientInterceptor {
        private final CallTimers timers;
        private final StreamMeters streams;
        private final KestrelMetrics owner;

        Client(CallTimers timers, StreamMeters streams, KestrelMetrics owner) {
            this.timers = timers;
            this.streams = streams;
            this.owner = owner;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            ClientCallInfo call = chain.call();
            if (call.isStream()) {
                call.addStreamListener(streams.started(call, () -> owner.calledProvider(call.peerAddress())));
                return chain.proceed();
            }
            long start = System.nanoTime();
            CompletableFuture<Object> result = chain.proceed();
            if (Futures.succeeded(result)) {
                ended(chain, null, start);
                return result;
            }
            return result.whenComplete((value, error) -> ended(chain, error, start));
        }

        private void ended(Chain chain, Throwable error, long start) {
            ClientCallInfo call = chain.call();
            timers.record(call, error, System.nanoTime() - start);
            owner.calledProvider(call.peerAddress());
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
        private final StreamMeters streams;

        Server(CallTimers timers, StreamMeters streams) {
            this.timers = timers;
            this.streams = streams;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            if (chain.call().isStream()) {
                chain.call().addStreamListener(streams.started(chain.call(), null));
                return chain.proceed();
            }
            long start = System.nanoTime();
            CompletableFuture<Object> result = chain.proceed();
            if (Futures.succeeded(result)) { // the usual blocking service method: no callback, no second future
                timers.record(chain.call(), null, System.nanoTime() - start);
                return result;
            }
            return result.whenComplete((value, error) -> timers.record(chain.call(), error, System.nanoTime() - start));
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
