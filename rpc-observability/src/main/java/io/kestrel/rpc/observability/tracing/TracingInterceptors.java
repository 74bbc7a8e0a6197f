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
            ObservedClient call = new ObservedClient(chain);
            Observation observation = Observation.createNotStarted(convention, call, registry);
            if (observation.isNoop()) {
                return chain.proceed();
            }
            return call.observe(observation.start());
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
            ObservedServer call = new ObservedServer(chain);
            Observation observation = Observation.createNotStarted(convention, call, registry);
            if (observation.isNoop()) {
                return chain.proceed();
            }
            // the parent comes from the carrier, never from whatever this pooled thread last had in scope
            return call.observe(observation.parentObservation(null).start());
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

    /**
     * One observed call is its observation's context itself ({@link ObservedClient}, {@link ObservedServer}): the
     * context's supplier that {@code Observation.createNotStarted} asks for, the rest of the chain, and the callback
     * that stops the observation when the call's future completes. One object per call, the context Micrometer
     * needs anyway, instead of a holder beside it (and a lambda for each of the three before that).
     */
    private interface Observed extends BiConsumer<Object, Throwable> {
        /** Runs the rest of the chain. */
        CompletableFuture<Object> proceed();

        /** Keeps the started observation, for the callback (set before the callback is registered). */
        void started(Observation observation);

        /** Runs the rest of the chain with the started observation in scope; stops it when the result is known. */
        default CompletableFuture<Object> observe(Observation started) {
            started(started);
            CompletableFuture<Object> result;
            try (Observation.Scope scope = started.openScope()) {
                result = proceed();
            } catch (RuntimeException | Error e) {
                accept(null, e);
                throw e;
            }
            if (Futures.succeeded(result)) { // a provider's blocking method: no callback, no second future
                accept(result.join(), null);
                return result;
            }
            return result.whenComplete(this);
        }
    }

    /** The call ended: stops {@code observation}, after {@link Observation#error} for a failure. */
    private static void stop(Observation observation, Throwable error) {
        if (error != null) {
            observation.error(unwrap(error));
        }
        observation.stop();
    }

    private static final class ObservedClient extends RpcClientContext
            implements Observed, Supplier<RpcClientContext> {
        private final ClientInterceptor.Chain chain;
        private Observation observation;

        ObservedClient(ClientInterceptor.Chain chain) {
            super(chain.call());
            this.chain = chain;
        }

        @Override
        public RpcClientContext get() {
            return this;
        }

        @Override
        public CompletableFuture<Object> proceed() {
            return chain.proceed();
        }

        @Override
        public void started(Observation started) {
            this.observation = started;
        }

        @Override
        public void accept(Object response, Throwable error) {
            ended(response, CallOutcome.of(error));
            stop(observation, error);
        }
    }

    private static final class ObservedServer extends RpcServerContext
            implements Observed, Supplier<RpcServerContext> {
        private final ServerInterceptor.Chain chain;
        private Observation observation;

        ObservedServer(ServerInterceptor.Chain chain) {
            super(chain.call());
            this.chain = chain;
        }

        @Override
        public RpcServerContext get() {
            return this;
        }

        @Override
        public CompletableFuture<Object> proceed() {
            return chain.proceed();
        }

        @Override
        public void started(Observation started) {
            this.observation = started;
        }

        @Override
        public void accept(Object response, Throwable error) {
            ended(response, CallOutcome.of(error));
            stop(observation, error);
        }
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
