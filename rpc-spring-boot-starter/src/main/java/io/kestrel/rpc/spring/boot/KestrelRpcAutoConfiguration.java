package io.kestrel.rpc.spring.boot;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.KestrelRpcRegistrar;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Kestrel RPC in a Spring Boot application, without {@code @EnableKestrelRpc}: the context's
 * {@link RpcRuntime} from the {@code rpc.*} properties ({@link KestrelRpcProperties}), export of
 * {@code @RpcService} beans and injection of {@code @RpcReference} fields (the beans {@link KestrelRpcBeans}
 * lists, registered once even when {@code @EnableKestrelRpc} or the XML namespace is used too), and the
 * {@link KestrelRpcBootLifecycle}: keep-alive while services are exported, readiness refusing before the
 * graceful shutdown. Turn it off with {@code spring.autoconfigure.exclude}.
 */
@AutoConfiguration
@ConditionalOnClass(RpcRuntime.class)
@EnableConfigurationProperties(KestrelRpcProperties.class)
@Import(KestrelRpcRegistrar.class)
public class KestrelRpcAutoConfiguration {

    @Bean
    KestrelRpcBootLifecycle kestrelRpcBootLifecycle(ApplicationEventPublisher events) {
        return new KestrelRpcBootLifecycle(events);
    }
}
