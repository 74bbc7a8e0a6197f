package io.kestrel.rpc.spring.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

class ConfigSourceTest {
    interface SyncOnly {
        String hello();
    }

    interface WithAsync {
        CompletableFuture<String> hello();
    }

    private static StandardEnvironment env(Map<String, Object> props) {
        StandardEnvironment env = new StandardEnvironment();
        env.getPropertySources().addFirst(new MapPropertySource("t", props));
        return env;
    }

    @Test
    void durationsAcceptMillisUnitsAndIso() {
        assertEquals(Duration.ofMillis(1500), ConfigSource.duration("1500"));
        assertEquals(Duration.ofMillis(500), ConfigSource.duration("500ms"));
        assertEquals(Duration.ofSeconds(3), ConfigSource.duration("3s"));
        assertEquals(Duration.ofMinutes(2), ConfigSource.duration("2m"));
        assertEquals(Duration.ofSeconds(3), ConfigSource.duration("PT3S"));
        assertThrows(IllegalArgumentException.class, () -> ConfigSource.duration("0"));
        assertThrows(IllegalArgumentException.class, () -> ConfigSource.duration("3 seconds"));
    }

    @Test
    void placeholdersResolveAndBlankMeansNotSet() {
        ConfigSource src = ConfigSource.attributes("<rpc:protocol>", Map.of("port", "${p}", "host", "  "),
                env(Map.of("p", "0")));

        ProtocolConfig protocol = ConfigBinder.protocol(src, getClass().getClassLoader());

        assertEquals(0, protocol.port());
        assertEquals("127.0.0.1", protocol.host());
        assertNull(src.get("host"));
    }

    @Test
    void unresolvablePlaceholderNamesTheAttribute() {
        ConfigSource src = ConfigSource.attributes("<rpc:registry>", Map.of("address", "${nowhere}"), env(Map.of()));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigBinder.registry(src));
        assertTrue(e.getMessage().startsWith("<rpc:registry> attribute 'address' = \"${nowhere}\": "), e.getMessage());
    }

    @Test
    void streamIdleTimeoutTakesADurationOrZeroForOff() {
        ClassLoader loader = getClass().getClassLoader();
        assertEquals(Duration.ofSeconds(2), ConfigBinder.protocol(ConfigSource.attributes("<rpc:protocol>",
                Map.of("stream-idle-timeout", "2s"), null), loader).limits().streamIdleTimeout());
        assertEquals(Duration.ZERO, ConfigBinder.protocol(ConfigSource.environment("rpc.protocol.",
                env(Map.of("rpc.protocol.stream-idle-timeout", "0"))), loader).limits().streamIdleTimeout());
        assertEquals(Duration.ofMinutes(5), ConfigBinder.protocol(ConfigSource.attributes("<rpc:protocol>", Map.of(),
                null), loader).limits().streamIdleTimeout());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigBinder.protocol(
                ConfigSource.attributes("<rpc:protocol>", Map.of("stream-idle-timeout", "soon"), null), loader));
        assertTrue(e.getMessage().contains("'stream-idle-timeout'"), e.getMessage());
    }

    @Test
    void environmentPropertiesUseTheirFullNamesInMessages() {
        ConfigSource src = ConfigSource.environment("rpc.protocol.", env(Map.of("rpc.protocol.port", "70000")));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConfigBinder.protocol(src, getClass().getClassLoader()));
        assertEquals("Spring Environment property 'rpc.protocol.port' = \"70000\": protocol port must be 0..65535,"
                + " was 70000", e.getMessage());
    }

    @Test
    void registryAddressAndTimeoutsAreParsed() {
        RegistryConfig r = ConfigBinder.registry(ConfigSource.attributes("<rpc:registry>",
                Map.of("address", "zookeeper://zk1:2181,zk2:2181", "session-timeout", "5s"), null));

        assertEquals("zookeeper://zk1:2181,zk2:2181", r.address());
        assertEquals(Duration.ofSeconds(5), r.sessionTimeout());
    }

    @Test
    void referenceAttributesOverrideEnvironmentDefaults() {
        ConfigSource defaults = ConfigSource.environment("rpc.reference.", env(Map.of("rpc.reference.timeout", "700ms",
                "rpc.reference.retries", "5", "rpc.reference.check", "false")));
        ConfigSource src = ConfigSource.attributes("<rpc:reference>", Map.of("retries", "1", "cluster", "failfast",
                "idempotent", "true"), null);

        ReferenceConfig<SyncOnly> ref = ReferenceBinding.reference(src, defaults, SyncOnly.class, getClass().getClassLoader());

        assertEquals(true, ref.idempotent());
        assertEquals(Optional.of(Duration.ofMillis(700)), ref.timeout());
        assertEquals(1, ref.retries());
        assertEquals(false, ref.check());
        assertEquals(ClusterMode.FAILFAST, ref.cluster());
    }

    @Test
    void unknownLoadBalancerAndClusterNameTheAttribute() {
        IllegalArgumentException lb = assertThrows(IllegalArgumentException.class, () -> ReferenceBinding.reference(
                ConfigSource.attributes("<rpc:reference>", Map.of("loadbalance", "fastest"), null), null,
                SyncOnly.class, getClass().getClassLoader()));
        assertTrue(lb.getMessage().startsWith("<rpc:reference> attribute 'loadbalance' = \"fastest\": Unknown load"
                + " balancer 'fastest'"), lb.getMessage());

        IllegalArgumentException cluster = assertThrows(IllegalArgumentException.class, () -> ReferenceBinding.reference(
                ConfigSource.attributes("<rpc:reference>", Map.of("cluster", "failslow"), null), null,
                SyncOnly.class, getClass().getClassLoader()));
        assertTrue(cluster.getMessage().startsWith("<rpc:reference> attribute 'cluster' = \"failslow\""),
                cluster.getMessage());
        assertTrue(cluster.getMessage().endsWith("unknown cluster mode 'failslow'; use one of failover, failfast,"
                + " failsafe"), cluster.getMessage());
    }

    @Test
    void asyncTrueNeedsAFutureReturningMethod() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ReferenceBinding.reference(
                ConfigSource.attributes("<rpc:reference>", Map.of("async", "true"), null), null, SyncOnly.class,
                getClass().getClassLoader()));
        assertTrue(e.getMessage().contains("attribute 'async' = \"true\": " + SyncOnly.class.getName()
                + " declares no method returning CompletableFuture"), e.getMessage());

        ReferenceBinding.reference(ConfigSource.attributes("<rpc:reference>", Map.of("async", "true"), null), null,
                WithAsync.class, getClass().getClassLoader());
    }

    @Test
    void optimizerMustBeASerializationOptimizer() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConfigBinder.protocol(
                ConfigSource.attributes("<rpc:protocol>", Map.of("optimizer", "java.lang.String"), null),
                getClass().getClassLoader()));
        assertTrue(e.getMessage().startsWith("<rpc:protocol> attribute 'optimizer' = \"java.lang.String\": class"
                + " java.lang.String does not implement"), e.getMessage());
    }
}
