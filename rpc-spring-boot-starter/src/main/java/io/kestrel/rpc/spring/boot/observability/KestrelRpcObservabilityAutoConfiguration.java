package io.kestrel.rpc.spring.boot.observability;

import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.api.interceptor.ServerInterceptor;
import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.observability.metrics.KestrelMetrics;
import io.kestrel.rpc.observability.tracing.KestrelTracing;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Binds Kestrel RPC's metrics and tracing (module {@code rpc-observability}) to the application's
 * {@link MeterRegistry} and {@link ObservationRegistry} when Boot provides them (actuator with Micrometer).
 * The interceptors are beans, so rpc-spring adds them to the runtime like any interceptor bean; the
 * runtime's gauges are bound once every singleton exists. Off with {@code management.metrics.kestrel.enabled=false}
 * and {@code management.observations.kestrel.enabled=false}; absent when {@code rpc-observability} is not on
 * the class path.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"})
@ConditionalOnClass(name = "io.kestrel.rpc.observability.metrics.KestrelMetrics")
public class KestrelRpcObservabilityAutoConfiguration {

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
}
