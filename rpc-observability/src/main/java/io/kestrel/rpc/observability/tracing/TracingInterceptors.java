package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.observability.internal.Futures;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * The two observing interceptors. Each starts an observation when the call enters it, keeps it
 * current (in scope) while the rest of the chain runs on that thread, and stops it when the call's
 * future completes, after {@link Observation#error} for a failed call. With a no-op registry, or an
 * observation the registry's predicates turn off, they only pass the call on (no context is kept).
 */
final class TracingInterceptors {
    private TracingInterceptors() {
    }

    /** Consumer side: the observation starts before the request is sent, so its trace context travels with it. */
    static final class Client implements ClientInterceptor {
        private final ObservationRegistry registry;
        private final ObservationConvention<RpcClientContext> convention;

        Client(ObservationRegistry registry, ObservationConvention<RpcClientContext> convention) {
            this.registry = registry;
            this.convention = convention;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            if (registry.isNoop()) {
                return chain.proceed();
            }
            RpcClientContext context = new RpcClientContext(chain.call());
            Observation observation = Observation.createNotStarted(convention, () -> context, registry);
            if (observation.isNoop()) {
                return chain.proceed();
            }
            return observe(observation.start(), chain::proceed, context::ended);
        }

        @Override
        public int order() {
            return KestrelTracing.ORDER;
        }

        @Override
        public String name() {
            return "tracing (kestrel.rpc.client)";
        }
    }

    /** Provider side: the observation continues the trace the request's attachments carry. */
    static final class Server implements ServerInterceptor {
        private final ObservationRegistry registry;
        private final ObservationConvention<RpcServerContext> convention;

        Server(ObservationRegistry registry, ObservationConvention<RpcServerContext> convention) {
            this.registry = registry;
            this.convention = convention;
        }

        @Override
        public CompletableFuture<Object> intercept(Chain chain) {
            if (registry.isNoop()) {
                return chain.proceed();
            }
            RpcServerContext context = new RpcServerContext(chain.call());
            Observation observation = Observation.createNotStarted(convention, () -> context, registry);
            if (observation.isNoop()) {
                return chain.proceed();
            }
            // the parent comes from the carrier, never from whatever this pooled thread last had in scope
            return observe(observation.parentObservation(null).start(), chain::proceed, context::ended);
        }

        @Override
        public int order() {
            return KestrelTracing.ORDER;
        }

        @Override
        public String name() {
            return "tracing (kestrel.rpc.server)";
        }
    }

    /** Runs the rest of the chain with the started observation in scope; stops it when the result is known. */
    private static CompletableFuture<Object> observe(Observation observation, Supplier<CompletableFuture<Object>> rest,
            BiConsumer<Object, CallOutcome> ended) {
        CompletableFuture<Object> result;
        try (Observation.Scope scope = observation.openScope()) {
            result = rest.get();
        } catch (RuntimeException | Error e) {
            end(observation, null, e, ended);
            throw e;
        }
        if (Futures.succeeded(result)) { // a provider's blocking method: no callback, no second future
            end(observation, result.join(), null, ended);
            return result;
        }
        return result.whenComplete((value, error) -> end(observation, value, error, ended));
    }

    private static void end(Observation observation, Object value, Throwable error, BiConsumer<Object, CallOutcome> ended) {
        ended.accept(value, CallOutcome.of(error));
        if (error != null) {
            observation.error(unwrap(error));
        }
        observation.stop();
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
