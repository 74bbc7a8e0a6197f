package io.kestrel.rpc.observability.otel;

import io.kestrel.rpc.api.interceptor.CallInfo;
import io.kestrel.rpc.observability.internal.PerMethod;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;

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

    private final PerMethod<Method> byMethod;

    /** @param client whether for consumer spans, which also name the service called as {@code peer.service} */
    SpanNames(boolean client) {
        this.byMethod = new PerMethod<>(call -> new Method(call, client));
    }

    Method of(CallInfo call) {
        return byMethod.of(call);
    }

    /** One method's span name and shared attributes. */
    record Method(String spanName, Attributes attributes) {
        Method(CallInfo call, boolean client) {
            this(call.service() + "/" + call.methodName(), attributes(call, client));
        }

        private static Attributes attributes(CallInfo call, boolean client) {
            String service = call.service().toString();
            AttributesBuilder b = Attributes.builder()
                    .put(RPC_SYSTEM, "kestrel")
                    .put(RPC_SERVICE, service)
                    .put(RPC_METHOD, call.methodName())
                    .put(SERIALIZATION, String.valueOf(call.serialization()));
            if (client) {
                b.put(PEER_SERVICE, service);
            }
            return b.build();
        }
    }
}
