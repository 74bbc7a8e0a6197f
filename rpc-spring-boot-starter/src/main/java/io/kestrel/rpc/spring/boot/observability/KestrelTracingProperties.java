package io.kestrel.rpc.spring.boot.observability;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code management.tracing.kestrel.*}: how Kestrel RPC's calls are traced. Bound at start, so a value
 * that is not one of {@link Api}'s stops the application with Boot's list of the valid ones.
 */
@ConfigurationProperties("management.tracing.kestrel")
public class KestrelTracingProperties {

    /** The API Kestrel RPC's tracing interceptors use. */
    public enum Api {
        /** Micrometer Observation (the application's ObservationRegistry and its tracing bridge). */
        OBSERVATION,
        /** The application's OpenTelemetry bean directly: the same spans, less work per call. */
        OPENTELEMETRY
    }

    /**
     * Trace through Micrometer Observation ("observation", the default) or straight through the
     * application's OpenTelemetry bean ("opentelemetry").
     */
    private Api api = Api.OBSERVATION;

    public Api getApi() {
        return api;
    }

    public void setApi(Api api) {
        this.api = api;
    }
}
