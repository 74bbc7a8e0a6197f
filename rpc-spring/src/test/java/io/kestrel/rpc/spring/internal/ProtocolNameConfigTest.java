package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** The protocol name on {@code <rpc:protocol name>}, a reference's {@code protocol} and a {@code dubbo://} url. */
class ProtocolNameConfigTest {
    interface Greeter {
        String hello(String name);
    }

    private static StandardEnvironment env(Map<String, Object> props) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("t", props));
        return env;
    }

    private static ProtocolConfig protocol(Map<String, String> attributes) {
        return ConfigBinder.protocol(ConfigSource.attributes("<rpc:protocol>", attributes, env(Map.of())),
                ProtocolNameConfigTest.class.getClassLoader());
    }

    private static ReferenceConfig<Greeter> reference(Map<String, String> attributes, Map<String, Object> props) {
        StandardEnvironment env = env(props);
        return ReferenceBinding.reference(ConfigSource.attributes("<rpc:reference>", attributes, env),
                ConfigSource.environment("rpc.reference.", env), Greeter.class, Greeter.class.getClassLoader());
    }

    @Test
    void dubboProtocolDefaultsToHessian2AndTheNativeOneStaysTheDefault() {
        assertEquals("kestrel", protocol(Map.of()).name());
        assertEquals("fory", protocol(Map.of()).serialization());
        ProtocolConfig dubbo = protocol(Map.of("name", "Dubbo"));
        assertEquals("dubbo", dubbo.name());
        assertEquals("hessian2", dubbo.serialization());
        assertEquals("hessian2", protocol(Map.of("name", "dubbo", "serialization", "hessian2")).serialization());
        assertEquals("fastjson2", protocol(Map.of("name", "dubbo", "serialization", "fastjson2")).serialization());
    }

    @Test
    void unknownProtocolNameAndUnspeakableSerializationNameTheFix() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> protocol(Map.of("name", "triple")));
        assertTrue(e.getMessage().contains("'name'") && e.getMessage().contains("triple")
                && e.getMessage().contains("dubbo"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> protocol(Map.of("name", "dubbo", "serialization", "kryo")));
        assertTrue(e.getMessage().contains("kryo") && e.getMessage().contains("[hessian2, fastjson2]"),
                e.getMessage());
    }

    @Test
    void dubboUrlSetsTheReferenceProtocolAndKeepsHostPort() {
        ReferenceConfig<Greeter> r = reference(Map.of("url", "dubbo://127.0.0.1:20880,dubbo://10.0.0.2:20881"),
                Map.of());
        assertEquals("dubbo", r.protocol());
        assertEquals("127.0.0.1:20880,10.0.0.2:20881", r.url());
        assertEquals("kestrel", reference(Map.of("url", "127.0.0.1:20880"), Map.of()).protocol());
        assertEquals("dubbo", reference(Map.of(), Map.of("rpc.reference.protocol", "dubbo")).protocol());
        assertEquals("dubbo", reference(Map.of("protocol", "dubbo", "url", "127.0.0.1:1"), Map.of()).protocol());
    }

    @Test
    void conflictingOrUnreadableUrlsAreRefusedNamingWhatToChange() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> reference(Map.of("protocol", "kestrel", "url", "dubbo://127.0.0.1:20880"), Map.of()));
        assertTrue(e.getMessage().contains("make them agree"), e.getMessage());
        assertEquals("127.0.0.1:20880/com.example.Greeter",
                reference(Map.of("url", "dubbo://127.0.0.1:20880/com.example.Greeter"), Map.of()).url());
        e = assertThrows(IllegalArgumentException.class,
                () -> reference(Map.of("url", "tri://127.0.0.1:50051"), Map.of()));
        assertTrue(e.getMessage().contains("unknown protocol 'tri://'"), e.getMessage());
    }

    @Test
    void theEnvironmentKnowsTheNewKey() {
        assertTrue(EnvironmentKeys.known().contains("rpc.reference.protocol"));
        assertTrue(EnvironmentKeys.known().contains("rpc.protocol.name"));
    }
}
