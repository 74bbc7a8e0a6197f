package io.kestrel.rpc.observability.tracing;

import io.kestrel.rpc.api.interceptor.CallOutcome;
import io.kestrel.rpc.api.interceptor.ClientCallInfo;
import io.micrometer.observation.transport.RequestReplySenderContext;
import java.util.Map;

/**
 * The observation context of one consumer call. Its carrier is the call's request attachments: a
 * tracing bridge writes W3C {@code traceparent}/{@code tracestate} there when the observation starts.
 *
 * <p>Not final only for the tracing interceptor's own subclass, which is also the observed call (one object per call);
 * its constructor is not public.
 */
public class RpcClientContext extends RequestReplySenderContext<Map<String, String>, Object> {
    private final ClientCallInfo call;
    private volatile CallOutcome outcome;

    RpcClientContext(ClientCallInfo call) {
        super((carrier, key, value) -> {
            if (carrier != null) {
                carrier.put(key, value);
            }
        });
        this.call = call;
        setCarrier(call.requestAttachments());
        setRemoteServiceName(call.service().toString());
    }

    /** The call. */
    public ClientCallInfo call() {
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
