package io.kestrel.rpc.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Import;

/**
 * Put on a {@code @Configuration} class to use Kestrel RPC with annotations: registers the context's
 * {@link io.kestrel.rpc.core.RpcRuntime}, the {@link RpcReference} injection and {@link RpcService} export
 * processing, and the lifecycle that exports on start and unregisters and drains on close (see
 * {@link KestrelRpcBeans}). Settings come from {@code rpc.*} properties of the Spring {@code Environment}
 * unless the context has config beans (see {@link RpcRuntimeFactoryBean}). Spring Boot applications with
 * {@code rpc-spring-boot-starter} do not need it (the auto-configuration registers the same beans).
 *
 * <pre>{@code
 * @Configuration
 * @EnableKestrelRpc
 * @ComponentScan
 * @PropertySource("classpath:consumer.properties")   // rpc.registry.address=zookeeper://127.0.0.1:2181 ...
 * class ConsumerConfig { }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(KestrelRpcRegistrar.class)
public @interface EnableKestrelRpc {
}
