package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ServerCallInfo;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import java.util.Map;

/**
 * The observation context of one call served by a provider. Its carrier is the request's attachments,
 * from which a tracing bridge reads the consumer's {@code traceparent}/{@code tracestate}.
 *
 * <p>Not final only for the tracing interceptor's own subclass, which is also the observed call (one object per call);
 * its constructor is not public.
 */
public class RpcServerContext extends RequestReplyReceiverContext<Map<String, String>, Object> {
    private final ServerCallInfo call;
    private volatile CallOutcome outcome;

    RpcServerContext(ServerCallInfo call) {
        super((carrier, key) -> carrier.get(key));
        this.call = call;
        setCarrier(call.requestAttachments());
    }

    /** The call. */
    public ServerCallInfo call() {
        return call;
    }

    /** How the call ended; null until it has. */
    public CallOutcome outcome() {
        return outcome;
    }

    /** The call ended: with this response (null for a failure) and outcome. */
    void ended(Object response, CallOutcome outcome) {
        setResponse(response);
        this.outcome = outcome;
    }
}
