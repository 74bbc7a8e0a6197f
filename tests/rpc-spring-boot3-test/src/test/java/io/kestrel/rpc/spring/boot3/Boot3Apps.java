package io.kestrel.rpc.spring.boot3;

import io.kestrel.rpc.spring.RpcReference;
import io.kestrel.rpc.spring.RpcService;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/** The service and the two Spring Boot 3.5 applications of {@link Boot3StarterTest}. */
final class Boot3Apps {
    private Boot3Apps() {
    }

    /** Test service. */
    public interface Greeter {
        String greet(String name);
    }

    /** Exported by annotation only. */
    @RpcService(version = "3.5")
    public static class GreeterService implements Greeter {
        @Override
        public String greet(String name) {
            return "hello " + name + " from boot 3";
        }
    }

    /** Provider: the starter and one {@code @RpcService}, no {@code @EnableKestrelRpc}. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(GreeterService.class)
    public static class ProviderApp {
    }

    /** Consumer: the starter and one {@code @RpcReference}, no {@code @EnableKestrelRpc}. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class ConsumerApp {
        @Bean
        Client client() {
            return new Client();
        }
    }

    /** Holds the injected proxy. */
    public static class Client {
        @RpcReference(version = "3.5", retries = "0", timeout = "30s") // generous: a first call on a loaded machine
        Greeter greeter;
    }
}
