package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ResilienceConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The outlier-ejection and retry-budget attributes of {@code <rpc:reference>}, and {@code empty-protection}. */
class ResilienceBindingTest {
    interface Hello {
        String hello();
    }

    private static StandardEnvironment env(Map<String, Object> props) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("t", props));
        return env;
    }

    private static ResilienceConfig bind(Map<String, String> attributes, Map<String, Object> environment) {
        StandardEnvironment e = env(environment);
        ReferenceConfig<Hello> r = ReferenceBinding.reference(ConfigSource.attributes("<rpc:reference>", attributes, e),
                ConfigSource.environment("rpc.reference.", e), Hello.class, Hello.class.getClassLoader());
        return r.resilience();
    }

    @Test
    void attributesWinOverTheEnvironmentWhichWinsOverTheDefaults() {
        assertEquals(ResilienceConfig.defaults(), bind(Map.of(), Map.of()));
        ResilienceConfig r = bind(Map.of("outlier-failures", "3", "retry-budget-percent", "5"),
                Map.of("rpc.reference.outlier-failures", "7", "rpc.reference.outlier-ejection", "2s",
                        "rpc.reference.retry-budget-min-per-second", "1"));
        assertEquals(3, r.outlierFailures());
        assertEquals(Duration.ofSeconds(2), r.outlierEjection());
        assertEquals(5, r.retryBudgetPercent());
        assertEquals(1, r.retryBudgetMinPerSecond());
        assertEquals(Duration.ofSeconds(30), r.outlierMaxEjection(), "unset: the default");
        assertTrue(EnvironmentKeys.known().contains("rpc.reference.outlier-max-ejected-percent"));
        assertTrue(EnvironmentKeys.known().contains("rpc.registry.empty-protection"));
    }

    @Test
    void aBadValueNamesTheAttribute() {
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> bind(Map.of("outlier-max-ejected-percent", "120"), Map.of()));
        assertTrue(e.getMessage().contains("outlier-max-ejected-percent") && e.getMessage().contains("120"),
                e.getMessage());
    }

    @Test
    void emptyProtectionIsOnUnlessTurnedOff() {
        StandardEnvironment e = env(Map.of());
        assertTrue(ConfigBinder.registry(ConfigSource.attributes("<rpc:registry>", Map.of(), e)).emptyProtection());
        assertFalse(ConfigBinder.registry(ConfigSource.attributes("<rpc:registry>",
                Map.of("empty-protection", "false"), e)).emptyProtection());
        assertFalse(ConfigBinder.registry(ConfigSource.environment("rpc.registry.",
                env(Map.of("rpc.registry.empty-protection", "false")))).emptyProtection());
    }
}
