package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.RpcRuntime;
import io.kestrel.rpc.spring.KestrelRpcBeans;
import io.kestrel.rpc.spring.boot.KestrelRpcAutoConfiguration;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@code kestrel} endpoint, when actuator is on the class path (same API on Boot 3 and 4), and the
 * {@code kestrelconsole} endpoint when the runtime also serves the web console (module {@code rpc-console} on the
 * class path).
 */
@AutoConfiguration(after = KestrelRpcAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
public class KestrelRpcEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(endpoint = KestrelRpcEndpoint.class)
    KestrelRpcEndpoint kestrelRpcEndpoint(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime) {
        return new KestrelRpcEndpoint(runtime);
    }

    /** The web console's JSON documents, when the runtime serves the console ({@code rpc.console.enabled=true}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.kestrel.rpc.console.KestrelConsole")
    @ConditionalOnProperty(name = "rpc.console.enabled", havingValue = "true")
    static class Console {
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint(endpoint = KestrelConsoleEndpoint.class)
        KestrelConsoleEndpoint kestrelConsoleEndpoint(@Qualifier(KestrelRpcBeans.RUNTIME) RpcRuntime runtime) {
            return new KestrelConsoleEndpoint(runtime);
        }
    }
}
