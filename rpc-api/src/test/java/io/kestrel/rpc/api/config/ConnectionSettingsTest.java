package io.kestrel.rpc.api.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The connection settings of the runtime and of a reference are one {@link ConnectionSettings}. */
class ConnectionSettingsTest {
    interface Hello {
        String hello();
    }

    @Test
    void aReferenceOverridesOnlyWhatItSets() {
        ClientConfig client = ClientConfig.builder().token("runtime").build();
        ReferenceConfig<Hello> ref = ReferenceConfig.builder(Hello.class).payloadBytes(4096)
                .heartbeatInterval(Duration.ofSeconds(4)).build();
        assertNull(ref.connectTimeout(), "unset on the reference");
        assertEquals(4096, ref.connection().payloadBytes());
        ClientConfig merged = client.with(ref);
        assertEquals(4096, merged.payloadBytes());
        assertEquals(Duration.ofSeconds(4), merged.heartbeatInterval());
        assertEquals(Duration.ofSeconds(3), merged.connectTimeout(), "the runtime's");
        assertEquals(65536, merged.maxPendingCalls());
        assertEquals(3, merged.heartbeatMisses());
        assertEquals("runtime", merged.token());
        assertEquals(client.ioThreads(), merged.ioThreads());
        assertEquals(client, client.with(ReferenceConfig.builder(Hello.class).build()), "nothing set: the runtime's");
        assertEquals(client, client.toBuilder().build());
    }

    @Test
    void badValuesNameTheSettingOfTheirOwner() {
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                () -> ClientConfig.builder().maxPendingCalls(0));
        assertEquals("client max-pending must be >= 1, was 0", c.getMessage());
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class,
                () -> ReferenceConfig.builder(Hello.class).payloadBytes(10));
        assertEquals("reference payload must be >= 1024, was 10", r.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ReferenceConfig.builder(Hello.class)
                .connection(ClientConfig.defaults().connection()).connectTimeout(Duration.ZERO));
    }

    @Test
    void aReferenceMayTakeSettingsAsOneValue() {
        ConnectionSettings shared = ConnectionSettings.builder().connectTimeout(Duration.ofSeconds(1)).token("t").build();
        ReferenceConfig<Hello> ref = ReferenceConfig.builder(Hello.class).connection(shared).build();
        assertEquals(shared, ref.connection());
        assertEquals("t", ref.token());
        assertSame(ConnectionSettings.none(), ConnectionSettings.none());
        assertEquals(ConnectionSettings.none(), ReferenceConfig.builder(Hello.class).build().connection());
        assertTrue(ClientConfig.defaults().toString().startsWith("ClientConfig{io-threads="), ClientConfig.defaults()
                .toString());
        assertEquals("connect-timeout=1000ms, token=(set)", shared.toString());
    }
}
