package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.api.interceptor.CountingStreamListener;
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
 * future completes, after {@link Observation#error} for a failed call. A stream's observation stops when the
 * stream ends (one span per stream), with the messages it sent and received as the high-cardinality key values
 * {@value #MESSAGES_SENT} and {@value #MESSAGES_RECEIVED}. With a no-op registry, or an
 * observation the registry's predicates turn off, they only pass the call on (no context is kept).
 */
final class TracingInterceptors {
    /** Key value of a stream's observation: the messages this side sent. */
    static final String MESSAGES_SENT = "rpc.messages.sent";
    /** Key value of a stream's observation: the messages this side received. */
    static final String MESSAGES_RECEIVED = "rpc.messages.received";

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

        /** The call. */
        CallInfo call();

        /**
         * Runs the rest of the chain with the started observation in scope; stops it when the result is known, or
         * for a stream when the stream ends.
         */
        default CompletableFuture<Object> observe(Observation started) {
            started(started);
            boolean stream = call().isStream();
            if (stream) {
                call().addStreamListener(new StreamEnd(started, this));
            }
            CompletableFuture<Object> result;
            try (Observation.Scope scope = started.openScope()) {
                result = proceed();
            } catch (RuntimeException | Error e) {
                if (!stream) { // a stream ends (and its listener stops the observation) whatever the chain did
                    accept(null, e);
                }
                throw e;
            }
            if (stream) {
                return result;
            }
            if (Futures.succeeded(result)) { // a provider's blocking method: no callback, no second future
                accept(result.join(), null);
                return result;
            }
            return result.whenComplete(this);
        }
    }

    /** Counts a stream's messages and stops its observation when it ends, with the counts as key values. */
    private static final class StreamEnd extends CountingStreamListener {
        private final Observation observation;
        private final Observed observed;

        StreamEnd(Observation observation, Observed observed) {
            this.observation = observation;
            this.observed = observed;
        }

        @Override
        public void onEnd(Throwable error) {
            observation.highCardinalityKeyValue(MESSAGES_SENT, Long.toString(sent()));
            observation.highCardinalityKeyValue(MESSAGES_RECEIVED, Long.toString(received()));
            observed.accept(null, error);
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
