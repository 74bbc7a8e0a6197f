package io.kestrel.rpc.observability;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.observation.ObservationRegistry;

/** {@link TracingContract} for {@link KestrelTracing}: Micrometer Observation and the OpenTelemetry bridge. */
class TracingTest extends TracingContract {
    @Override
    protected RpcRuntime.Builder withTracing(RpcRuntime.Builder builder) {
        return KestrelTracing.of(otelTracing.observationRegistry()).addTo(builder);
    }

    @Override
    protected RpcRuntime.Builder withNoopTracing(RpcRuntime.Builder builder) {
        return KestrelTracing.of(ObservationRegistry.NOOP).addTo(builder);
    }
}
