package io.kestrel.rpc.spring.boot.observability;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.observability.otel.KestrelOpenTelemetry;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Binds Kestrel RPC's metrics and tracing (module {@code rpc-observability}) to the application's
 * {@link MeterRegistry} and {@link ObservationRegistry} when Boot provides them (actuator with Micrometer).
 * The interceptors are beans, so rpc-spring adds them to the runtime like any interceptor bean; the
 * runtime's gauges are bound once every singleton exists. Off with {@code management.metrics.kestrel.enabled=false}
 * and {@code management.observations.kestrel.enabled=false}; absent when {@code rpc-observability} is not on
 * the class path.
 *
 * <p>Tracing goes through the {@link ObservationRegistry} by default. With
 * {@code management.tracing.kestrel.api=opentelemetry} it goes straight to the application's
 * {@link OpenTelemetry} bean instead ({@link KestrelOpenTelemetry}: the same spans for a fraction of the
 * cost per call, no observation handlers); that setting without an {@code OpenTelemetry} bean, or
 * without {@code opentelemetry-api} on the class path, stops the application at start with a message
 * saying so rather than running untraced.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass(name = "io.kestrel.rpc.observability.metrics.KestrelMetrics")
@EnableConfigurationProperties(KestrelTracingProperties.class)
public class KestrelRpcObservabilityAutoConfiguration {
    /** Which API the tracing interceptors use: {@code observation} (the default) or {@code opentelemetry}. */
    static final String TRACING_API = "management.tracing.kestrel.api";
    private static final String OTEL_API_CLASS = "io.opentelemetry.api.OpenTelemetry";

    /** Call timers and runtime gauges on the application's meter registry. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    @ConditionalOnProperty(name = "management.metrics.kestrel.enabled", havingValue = "true", matchIfMissing = true)
    static class Metrics {
        @Bean
        @ConditionalOnMissingBean
        KestrelMetrics kestrelMetrics(MeterRegistry registry) {
            return KestrelMetrics.of(registry);
        }

        @Bean
        ClientInterceptor kestrelMetricsClientInterceptor(KestrelMetrics metrics) {
            return metrics.clientInterceptor();
        }

        @Bean
        ServerInterceptor kestrelMetricsServerInterceptor(KestrelMetrics metrics) {
            return metrics.serverInterceptor();
        }

        @Bean
        SmartInitializingSingleton kestrelRuntimeGauges(KestrelMetrics metrics, ObjectProvider<RpcRuntime> runtimes) {
            return () -> runtimes.orderedStream().forEach(metrics::bindTo);
        }
    }

    /** Client and server observations (spans through whichever tracing bridge the application has). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ObservationRegistry.class)
    @ConditionalOnBean(ObservationRegistry.class)
    @ConditionalOnProperty(name = "management.observations.kestrel.enabled", havingValue = "true",
            matchIfMissing = true)
    @ConditionalOnProperty(name = TRACING_API, havingValue = "observation", matchIfMissing = true)
    static class Tracing {
        @Bean
        @ConditionalOnMissingBean
        KestrelTracing kestrelTracing(ObservationRegistry registry) {
            return KestrelTracing.of(registry);
        }

        @Bean
        ClientInterceptor kestrelTracingClientInterceptor(KestrelTracing tracing) {
            return tracing.clientInterceptor();
        }

        @Bean
        ServerInterceptor kestrelTracingServerInterceptor(KestrelTracing tracing) {
            return tracing.serverInterceptor();
        }
    }

    /** Spans straight on the application's OpenTelemetry ({@code management.tracing.kestrel.api=opentelemetry}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = OTEL_API_CLASS)
    @ConditionalOnProperty(name = TRACING_API, havingValue = "opentelemetry")
    static class OpenTelemetryTracing {
        @Bean
        @ConditionalOnMissingBean
        KestrelOpenTelemetry kestrelOpenTelemetry(ObjectProvider<OpenTelemetry> openTelemetry) {
            OpenTelemetry otel = openTelemetry.getIfUnique();
            if (otel == null) {
                throw new IllegalStateException(TRACING_API + "=opentelemetry needs one bean of type "
                        + OTEL_API_CLASS + " (found " + openTelemetry.stream().count() + "): add Spring Boot's"
                        + " OpenTelemetry support (spring-boot-starter-opentelemetry), declare the application's"
                        + " OpenTelemetrySdk as a bean, or remove the setting to trace through Micrometer Observation");
            }
            return KestrelOpenTelemetry.of(otel);
        }

        @Bean
        ClientInterceptor kestrelOpenTelemetryClientInterceptor(KestrelOpenTelemetry tracing) {
            return tracing.clientInterceptor();
        }

        @Bean
        ServerInterceptor kestrelOpenTelemetryServerInterceptor(KestrelOpenTelemetry tracing) {
            return tracing.serverInterceptor();
        }
    }

    /** {@code management.tracing.kestrel.api=opentelemetry} without the OpenTelemetry API: fail at start, not run untraced. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(OTEL_API_CLASS)
    @ConditionalOnProperty(name = TRACING_API, havingValue = "opentelemetry")
    static class OpenTelemetryMissing {
        @Bean
        Object kestrelOpenTelemetryMissing() {
            throw new IllegalStateException(TRACING_API + "=opentelemetry, but io.opentelemetry:opentelemetry-api is"
                    + " not on the class path: add it (and the OpenTelemetry SDK the application configures), or remove"
                    + " the setting to trace through Micrometer Observation");
        }
    }
}
