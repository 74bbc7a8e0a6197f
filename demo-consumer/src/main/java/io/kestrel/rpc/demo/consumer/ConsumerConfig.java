package io.kestrel.rpc.demo.consumer;

import io.kestrel.rpc.spring.EnableKestrelRpc;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * The consumer's whole configuration: Kestrel RPC enabled, settings in {@code consumer.properties}
 * (system properties such as {@code -Drpc.registry.address=...} override them).
 */
@Configuration
@EnableKestrelRpc
@PropertySource("classpath:consumer.properties")
@Import(DemoClient.class)
public class ConsumerConfig {
}
