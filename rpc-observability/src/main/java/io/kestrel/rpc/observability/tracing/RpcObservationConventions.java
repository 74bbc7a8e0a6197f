package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The default names and key values of Kestrel's observations, after OpenTelemetry's RPC semantic
 * conventions: span name {@code service/method}; low-cardinality {@code rpc.system=kestrel},
 * {@code rpc.service}, {@code rpc.method}, {@code status} (the outcome's tag, once the call ended),
 * {@code serialization}; high-cardinality {@code server.address} (consumer, the provider called) or
 * {@code client.address} (provider, the caller). Replace them through {@link KestrelTracing.Builder}.
 */
public final class RpcObservationConventions {
    /** Observation name of a consumer call. */
    public static final String CLIENT_NAME = "kestrel.rpc.client";
    /** Observation name of a served call. */
    public static final String SERVER_NAME = "kestrel.rpc.server";

    private RpcObservationConventions() {
    }

    /** The consumer's default convention. */
    public static final class Client implements ObservationConvention<RpcClientContext> {
        @Override
        public String getName() {
            return CLIENT_NAME;
        }

        @Override
        public String getContextualName(RpcClientContext context) {
            return spanName(context.call());
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(RpcClientContext context) {
            return low(context.call(), context.outcome());
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(RpcClientContext context) {
            String peer = context.call().peerAddress();
            return peer == null ? KeyValues.empty() : KeyValues.of("server.address", peer);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof RpcClientContext;
        }
    }

    /** The provider's default convention. */
    public static final class Server implements ObservationConvention<RpcServerContext> {
        @Override
        public String getName() {
            return SERVER_NAME;
        }

        @Override
        public String getContextualName(RpcServerContext context) {
            return spanName(context.call());
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(RpcServerContext context) {
            return low(context.call(), context.outcome());
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(RpcServerContext context) {
            String peer = context.call().peerAddress();
            return peer == null ? KeyValues.empty() : KeyValues.of("client.address", peer);
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof RpcServerContext;
        }
    }

    static String spanName(CallInfo call) {
        return names(call).spanName();
    }

    static KeyValues low(CallInfo call, CallOutcome outcome) {
        Names n = names(call);
        return outcome == null ? n.base() : n.withOutcome(outcome);
    }

    // Names and key values are the same for every call of a method: built once, not per call.
    private static final ConcurrentMap<MethodKey, Names> NAMES = new ConcurrentHashMap<>();
    private static final int MAX_CACHED = 10_000; // beyond it (a runaway number of services), built per call

    private static Names names(CallInfo call) {
        MethodKey key = new MethodKey(call.service(), call.method(), call.serialization());
        Names n = NAMES.get(key);
        if (n == null) {
            n = new Names(call);
            if (NAMES.size() < MAX_CACHED) {
                NAMES.putIfAbsent(key, n);
            }
        }
        return n;
    }

    private record MethodKey(ServiceKey service, Method method, String serialization) {
    }

    /** A method's span name and key values, with each outcome's. */
    private static final class Names {
        private static final CallOutcome[] OUTCOMES = CallOutcome.values();
        private final String spanName;
        private final KeyValues base;
        private final KeyValues[] withOutcome = new KeyValues[OUTCOMES.length];

        Names(CallInfo call) {
            spanName = call.service() + "/" + call.methodName();
            base = KeyValues.of("rpc.system", "kestrel", "rpc.service", call.service().toString(),
                    "rpc.method", call.methodName(), "serialization", String.valueOf(call.serialization()));
            for (CallOutcome o : OUTCOMES) {
                withOutcome[o.ordinal()] = base.and("status", o.tag());
            }
        }

        String spanName() {
            return spanName;
        }

        KeyValues base() {
            return base;
        }

        KeyValues withOutcome(CallOutcome outcome) {
            return withOutcome[outcome.ordinal()];
        }
    }
}
