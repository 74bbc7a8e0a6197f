package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.boot.KestrelRpcAutoConfiguration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The health contributors of {@link KestrelRpcHealthAutoConfiguration} on Spring Boot 3 (its actuator's
 * health API), with the same names, probe groups and switch ({@code management.health.kestrel.enabled}).
 */
@AutoConfiguration(after = KestrelRpcAutoConfiguration.class)
@ConditionalOnClass(name = Boot3HealthIndicator.HEALTH_INDICATOR)
@ConditionalOnMissingClass("org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnProperty(name = "management.health.kestrel.enabled", matchIfMissing = true)
public class KestrelRpcBoot3HealthAutoConfiguration {

    @Bean(name = ProbeGroups.KESTREL)
    @ConditionalOnMissingBean(name = ProbeGroups.KESTREL)
    Boot3HealthIndicator kestrelHealthIndicator(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime,
            Environment environment) {
        KestrelRpcHealth.Counted counted = ProbeGroups.counted(environment);
        return new Boot3HealthIndicator(runtime, r -> KestrelRpcHealth.of(r, counted));
    }

    @Bean(name = ProbeGroups.KESTREL_SERVER)
    @ConditionalOnMissingBean(name = ProbeGroups.KESTREL_SERVER)
    Boot3HealthIndicator kestrelServerHealthIndicator(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime) {
        return new Boot3HealthIndicator(runtime, KestrelRpcHealth::server);
    }

    @Bean
    static ProbeGroups kestrelRpcProbeGroups() {
        return new ProbeGroups();
    }
}
