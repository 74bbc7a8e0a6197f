package io.kestrel.rpc.api.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProviderInfoTest {
    private static final ServiceKey SERVICE = new ServiceKey("com.example.UserService", "1.0", "");

    @Test
    void timeoutIsPublishedOnlyWhenSetAndReadBack() {
        ProviderInfo timed = new ProviderInfo("10.0.0.5", 20880, SERVICE, List.of((byte) 28), 100, List.of("get"),
                Duration.ofMillis(200));
        assertEquals("kestrel://10.0.0.5:20880/com.example.UserService?version=1.0&group=&serialization=28"
                + "&weight=100&methods=get&timeout=200", timed.toUrl());
        ProviderInfo read = ProviderInfo.fromUrl(timed.toUrl());
        assertEquals(Optional.of(Duration.ofMillis(200)), read.timeout());
        assertEquals(timed, read);

        ProviderInfo untimed = new ProviderInfo("10.0.0.5", 20880, SERVICE, List.of((byte) 28), 100, List.of("get"));
        assertEquals(Optional.empty(), untimed.timeout());
        assertEquals("kestrel://10.0.0.5:20880/com.example.UserService?version=1.0&group=&serialization=28"
                + "&weight=100&methods=get", untimed.toUrl(), "no timeout: the record form is unchanged");
        assertNotEquals(timed, untimed);
    }

    @Test
    void recordsWithoutTheFieldOrWithUnknownFieldsStillRead() {
        ProviderInfo old = ProviderInfo.fromUrl(
                "kestrel://10.0.0.5:20880/com.example.UserService?version=1.0&group=&serialization=8,2&weight=50&methods=get");
        assertEquals(Optional.empty(), old.timeout());
        assertEquals(50, old.weight());
        ProviderInfo newer = ProviderInfo.fromUrl("kestrel://10.0.0.5:20880/com.example.UserService?version=1.0"
                + "&serialization=8&timeout=750&future=x");
        assertEquals(Optional.of(Duration.ofMillis(750)), newer.timeout());
    }

    @Test
    void malformedTimeoutIsReportedWithTheRecord() {
        String bad = "kestrel://10.0.0.5:20880/com.example.UserService?serialization=8&timeout=soon";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProviderInfo.fromUrl(bad));
        assertTrue(e.getMessage().startsWith("Malformed provider record '" + bad + "'"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProviderInfo.fromUrl(bad.replace("soon", "0")));
    }

    @Test
    void attributesRoundTripSortedAndEncodedAndCannotShadowOwnParameters() {
        ProviderInfo base = new ProviderInfo("10.0.0.5", 20880, SERVICE, List.of((byte) 28), 100, List.of("get"));
        ProviderInfo withApp = base.withAttributes(java.util.Map.of(ProviderInfo.PID, "4242",
                ProviderInfo.APPLICATION, "order service & co"));
        assertEquals(base.toUrl() + "&application=order+service+%26+co&pid=4242", withApp.toUrl());
        ProviderInfo read = ProviderInfo.fromUrl(withApp.toUrl());
        assertEquals(Optional.of("order service & co"), read.attribute(ProviderInfo.APPLICATION));
        assertEquals(List.of("application", "pid"), List.copyOf(read.attributes().keySet()));
        assertEquals(withApp, read);
        assertNotEquals(base, read);
        assertEquals(Optional.empty(), base.attribute(ProviderInfo.PID));
        assertThrows(IllegalArgumentException.class, () -> base.withAttributes(java.util.Map.of("weight", "1")));
    }
}
