package io.kestrel.rpc.observability.otel;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.observability.internal.PerMethod;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import java.util.Arrays;

/**
 * The span name and the attributes every span of a method shares, built once per service, method and
 * serialization of one side and found again without allocating ({@link PerMethod}).
 */
final class SpanNames {
    static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
    static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    static final AttributeKey<String> SERIALIZATION = AttributeKey.stringKey("serialization");
    static final AttributeKey<String> PEER_SERVICE = AttributeKey.stringKey("peer.service");

    /** The shared attributes' keys, in the order of {@link Method}'s values; consumer spans also name the service called. */
    @SuppressWarnings("unchecked")
    private static final AttributeKey<String>[] CLIENT_KEYS =
            new AttributeKey[] {RPC_SYSTEM, RPC_SERVICE, RPC_METHOD, SERIALIZATION, PEER_SERVICE};
    private static final AttributeKey<String>[] SERVER_KEYS = Arrays.copyOf(CLIENT_KEYS, 4);

    private final PerMethod<Method> byMethod;

    /** @param client whether for consumer spans, which also name the service called as {@code peer.service} */
    SpanNames(boolean client) {
        this.byMethod = new PerMethod<>(call -> new Method(call, client));
    }

    Method of(CallInfo call) {
        return byMethod.of(call);
    }

    /**
     * One method's span name and shared attributes. The attributes are set one by one, with keys made
     * once: an {@code Attributes} given to {@code setAllAttributes} costs a callback object per span
     * (its {@code forEach}).
     */
    static final class Method {
        private final String spanName;
        private final AttributeKey<String>[] keys;
        private final String[] values;

        Method(CallInfo call, boolean client) {
            String service = call.service().toString();
            this.spanName = service + "/" + call.methodName();
            this.keys = client ? CLIENT_KEYS : SERVER_KEYS;
            String[] shared = {"kestrel", service, call.methodName(), String.valueOf(call.serialization()), service};
            this.values = client ? shared : Arrays.copyOf(shared, SERVER_KEYS.length);
        }

        String spanName() {
            return spanName;
        }

        /** Sets the shared attributes on a span being built. */
        void setOn(SpanBuilder builder) {
            for (int i = 0; i < values.length; i++) {
                builder.setAttribute(keys[i], values[i]);
            }
        }

        /** Sets the shared attributes on a started span (again, once its serialization is known). */
        void setOn(Span span) {
            for (int i = 0; i < values.length; i++) {
                span.setAttribute(keys[i], values[i]);
            }
        }
    }
}
