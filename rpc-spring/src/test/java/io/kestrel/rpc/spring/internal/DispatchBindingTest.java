package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.Dispatch;
import io.kestrel.rpc.api.config.ServiceConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** {@code dispatch} of {@code <rpc:service>} and its default {@code rpc.service.dispatch}. */
class DispatchBindingTest {
    interface Hello {
        String hello();
    }

    private static StandardEnvironment env(Map<String, Object> props) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("t", props));
        return env;
    }

    private static ServiceConfig<Hello> bind(Map<String, String> attributes, Map<String, Object> environment) {
        StandardEnvironment e = env(environment);
        return ConfigBinder.service(ConfigSource.attributes("<rpc:service>", attributes, e),
                ConfigSource.environment("rpc.service.", e), Hello.class, (Hello) () -> "hi");
    }

    @Test
    void theAttributeWinsOverTheEnvironmentWhichWinsOverAuto() {
        assertEquals(Dispatch.AUTO, bind(Map.of(), Map.of()).dispatch());
        assertEquals(Dispatch.POOL, bind(Map.of(), Map.of("rpc.service.dispatch", "pool")).dispatch());
        assertEquals(Dispatch.DIRECT, bind(Map.of("dispatch", "direct"), Map.of("rpc.service.dispatch", "pool"))
                .dispatch());
        assertTrue(EnvironmentKeys.known().contains("rpc.service.dispatch"));
    }

    @Test
    void aBadValueNamesTheAttributeAndTheChoices() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> bind(Map.of("dispatch", "eventloop"), Map.of()));
        assertTrue(e.getMessage().contains("dispatch") && e.getMessage().contains("eventloop")
                && e.getMessage().contains("auto") && e.getMessage().contains("pool"), e.getMessage());
    }
}
