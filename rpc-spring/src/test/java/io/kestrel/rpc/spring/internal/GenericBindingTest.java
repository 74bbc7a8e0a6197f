package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.spring.RpcService;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** {@code generic} of {@code <rpc:service>} / {@code @RpcService}, and its default {@code rpc.service.generic}. */
class GenericBindingTest {
    interface Hello {
        String hello();
    }

    private static ServiceConfig<Hello> bind(Map<String, String> attributes, Map<String, Object> environment) {
        StandardEnvironment e = new StandardEnvironment();
        e.getPropertySources().addFirst(new MapPropertySource("t", environment));
        return ConfigBinder.service(ConfigSource.attributes("<rpc:service>", attributes, e),
                ConfigSource.environment("rpc.service.", e), Hello.class, (Hello) () -> "hi");
    }

    @Test
    void theAttributeWinsOverTheEnvironmentWhichWinsOverOn() {
        assertTrue(bind(Map.of(), Map.of()).generic());
        assertFalse(bind(Map.of(), Map.of("rpc.service.generic", "false")).generic());
        assertTrue(bind(Map.of("generic", "true"), Map.of("rpc.service.generic", "false")).generic());
        assertFalse(bind(Map.of("generic", "false"), Map.of()).generic());
        assertTrue(bind(Map.of("generic", "false"), Map.of()).toString().contains("generic=false"));
        assertTrue(EnvironmentKeys.known().contains("rpc.service.generic"));
    }

    @Test
    void aBadValueNamesTheAttribute() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> bind(Map.of("generic", "off"), Map.of()));
        assertTrue(e.getMessage().contains("generic") && e.getMessage().contains("off"), e.getMessage());
    }

    @Test
    void theSchemaAndTheAnnotationOfferIt() throws IOException, NoSuchMethodException {
        try (InputStream xsd = getClass().getResourceAsStream("/META-INF/kestrel-rpc.xsd")) {
            String schema = new String(xsd.readAllBytes(), StandardCharsets.UTF_8);
            int service = schema.indexOf("<xsd:element name=\"service\"");
            int reference = schema.indexOf("<xsd:element name=\"reference\"");
            int generic = schema.indexOf("<xsd:attribute name=\"generic\"", service);
            assertTrue(service >= 0 && generic > service && generic < reference, "generic is an attribute of <rpc:service>");
        }
        assertTrue(RpcService.class.getMethod("generic").getDefaultValue().equals(""));
    }
}
