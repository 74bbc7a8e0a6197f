package io.kestrel.rpc.spring;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.spring.fixture.GreetingService;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.BeanDefinitionStoreException;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericXmlApplicationContext;

/** Wrong configuration stops the context at startup with a message naming the element and the attribute. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadConfigurationTest {
    private static TestingServer zookeeper;
    private static Map<String, Object> props;

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(true);
        props = Map.of("zk", "zookeeper://" + zookeeper.getConnectString());
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    private static String startupFailure(String resource, Map<String, Object> properties) {
        RuntimeException e = assertThrows(RuntimeException.class, () -> TestContexts.xml(resource, properties).close());
        return TestContexts.messages(e);
    }

    @Test
    void unknownSerializationOnProtocolNamesElementAndAttribute() {
        String m = startupFailure("bad-protocol-serialization.xml", props);

        assertTrue(m.contains("<rpc:protocol> in class path resource [io/kestrel/rpc/spring/bad-protocol-serialization.xml]"
                + " attribute 'serialization' = \"protobuff\": Unknown serialization 'protobuff'; known: "), m);
        assertTrue(m.contains("kryo=8"), m);
    }

    @Test
    void unknownSerializationOnReferenceNamesElementAndAttribute() {
        String m = startupFailure("bad-reference-serialization.xml", props);

        assertTrue(m.contains("<rpc:reference id=\"greeter\" interface=\"" + GreetingService.class.getName()
                + "\">"), m);
        assertTrue(m.contains("attribute 'serialization' = \"protobuff\": Unknown serialization 'protobuff'"), m);
    }

    @Test
    void missingServiceInterfaceClassNamesElementAndAttribute() {
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> TestContexts.xml("bad-service-interface.xml", props).close());
        String m = TestContexts.messages(e);

        assertInstanceOf(BeanDefinitionStoreException.class, e);
        assertTrue(m.contains("<rpc:service interface=\"io.kestrel.rpc.spring.fixture.NoSuchService\">"), m);
        assertTrue(m.contains("attribute 'interface' = \"io.kestrel.rpc.spring.fixture.NoSuchService\": no such class"
                + " on the classpath"), m);
    }

    @Test
    void missingReferenceInterfaceClassNamesElementAndAttribute() {
        String m = startupFailure("bad-reference-interface.xml", props);

        assertTrue(m.contains("<rpc:reference id=\"greeter\" interface=\"io.kestrel.rpc.spring.fixture.NoSuchService\">"
                + " in class path resource"), m);
        assertTrue(m.contains("attribute 'interface'"), m);
    }

    @Test
    void referenceWithoutProviderFailsStartupWhenCheckIsOn() {
        RuntimeException e = assertThrows(RuntimeException.class, () -> TestContexts.xml("no-provider.xml", props).close());
        String m = TestContexts.messages(e);

        assertInstanceOf(NoProviderException.class, findNoProvider(e));
        assertTrue(m.contains("<rpc:reference id=\"greeter\" interface=\"" + GreetingService.class.getName() + "\">"), m);
        assertTrue(m.contains("attribute 'check' is true (the default) and: No provider available for "
                + GreetingService.class.getName()), m);
    }

    @Test
    void referenceWithoutProviderStartsWhenCheckIsOff() {
        try (GenericXmlApplicationContext ctx = TestContexts.xml("no-provider.xml", Map.of("zk", props.get("zk"),
                "check", "false"))) {
            GreetingService greeter = ctx.getBean(GreetingService.class);
            RuntimeException e = assertThrows(RuntimeException.class, () -> greeter.greet("x"));
            assertInstanceOf(NoProviderException.class, e, TestContexts.messages(e));
        }
    }

    @Test
    void invalidBooleanIsNotSilentlyFalse() {
        String m = startupFailure("no-provider.xml", Map.of("zk", props.get("zk"), "check", "flase"));

        assertTrue(m.contains("attribute 'check' = \"flase\": expected true or false"), m);
    }

    @Configuration
    @EnableKestrelRpc
    static class EnvConfig {
    }

    @Test
    void unknownSerializationInEnvironmentNamesTheProperty() {
        AnnotationConfigApplicationContext ctx = new AnnotationConfigApplicationContext();
        ctx.getEnvironment().getPropertySources().addFirst(new org.springframework.core.env.MapPropertySource("t",
                Map.of("rpc.registry.address", props.get("zk"), "rpc.protocol.serialization", "protobuff")));
        ctx.register(EnvConfig.class);
        RuntimeException e = assertThrows(RuntimeException.class, ctx::refresh);
        String m = TestContexts.messages(e);

        assertTrue(m.contains("IllegalArgumentException: Spring Environment property 'rpc.protocol.serialization'"
                + " = \"protobuff\": Unknown serialization 'protobuff'"), m);
    }

    private static Throwable findNoProvider(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof NoProviderException) {
                return c;
            }
        }
        return t;
    }

    @Test
    void misspeltRpcPropertyFailsStartupNamingTheNearestKnownKey() {
        String m = startupFailure("provider.xml", Map.of("zk", props.get("zk"), "tag", "typo",
                "rpc.protocol.serialisation", "kryo"));
        assertTrue(m.contains("Unknown Kestrel RPC property 'rpc.protocol.serialisation' (did you mean"
                + " 'rpc.protocol.serialization'?) in the Spring Environment"), m);
        assertTrue(m.contains("or set rpc.unknown-keys=warn to only log unknown rpc.* keys"), m);
    }

    @Test
    void unknownRpcPropertyWithoutNearMissListsItsGroup() {
        String m = startupFailure("provider.xml", Map.of("zk", props.get("zk"), "tag", "typo", "rpc.registry.zk", "x"));
        assertTrue(m.contains("'rpc.registry.zk' (known rpc.registry.* keys: address, connection-timeout, dubbo-root,"
                + " empty-protection, root, session-timeout)"), m);
    }

    @Test
    void unknownRpcPropertyOnlyWarnsWhenSwitchedToWarn() {
        try (var ctx = TestContexts.xml("provider.xml", Map.of("zk", props.get("zk"), "tag", "typo",
                "rpc.protocol.serialisation", "kryo", "rpc.unknown-keys", "warn"))) {
            assertTrue(ctx.isActive());
        }
    }
}
