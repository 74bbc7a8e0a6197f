package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.observability.internal.PerMethod;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
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
            return SERVER_ADDRESS.of(context.call().peerAddress());
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
            return CLIENT_ADDRESS.of(context.call().peerAddress());
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

    private static final PeerKeyValues SERVER_ADDRESS = new PeerKeyValues("server.address");
    private static final PeerKeyValues CLIENT_ADDRESS = new PeerKeyValues("client.address");

    /**
     * The high-cardinality key value of a peer address, kept per address (a process talks to a bounded
     * set of peers; beyond {@value #MAX_PEERS} of them, built per call).
     */
    private static final class PeerKeyValues {
        private static final int MAX_PEERS = 4096;
        private final String key;
        private final ConcurrentMap<String, KeyValues> byAddress = new ConcurrentHashMap<>();

        PeerKeyValues(String key) {
            this.key = key;
        }

        KeyValues of(String address) {
            if (address == null) {
                return KeyValues.empty();
            }
            KeyValues kv = byAddress.get(address);
            if (kv == null) {
                kv = KeyValues.of(key, address);
                if (byAddress.size() < MAX_PEERS) {
                    byAddress.putIfAbsent(address, kv);
                }
            }
            return kv;
        }
    }

    // Names and key values are the same for every call of a method: built once, found without allocating.
    private static final PerMethod<Names> NAMES = new PerMethod<>(Names::new);

    private static Names names(CallInfo call) {
        return NAMES.of(call);
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
