package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.boot.KestrelRpcAutoConfiguration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Health contributors on Spring Boot 4 ({@code spring-boot-health}): {@code kestrel} (server, registry,
 * {@code check=true} references, the last two reported but counted only when asked, see
 * {@link ProbeGroups#counted}; a member of the readiness group) and
 * {@code kestrelServer} (the server alone; a member of the liveness group). Off with
 * {@code management.health.kestrel.enabled=false}.
 */
@AutoConfiguration(after = KestrelRpcAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnProperty(name = "management.health.kestrel.enabled", matchIfMissing = true)
public class KestrelRpcHealthAutoConfiguration {

    @Bean(name = ProbeGroups.KESTREL)
    @ConditionalOnMissingBean(name = ProbeGroups.KESTREL)
    KestrelRpcHealthIndicator kestrelHealthIndicator(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime,
            Environment environment) {
        KestrelRpcHealth.Counted counted = ProbeGroups.counted(environment);
        return new KestrelRpcHealthIndicator(runtime, r -> KestrelRpcHealth.of(r, counted));
    }

    @Bean(name = ProbeGroups.KESTREL_SERVER)
    @ConditionalOnMissingBean(name = ProbeGroups.KESTREL_SERVER)
    KestrelRpcHealthIndicator kestrelServerHealthIndicator(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime) {
        return new KestrelRpcHealthIndicator(runtime, KestrelRpcHealth::server);
    }

    @Bean
    static ProbeGroups kestrelRpcProbeGroups() {
        return new ProbeGroups();
    }
}
