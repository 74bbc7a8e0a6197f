package io.kestrel.rpc.api.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConsumerInfoTest {
    @Test
    void recordRoundTripsWithEncodedAttributes() {
        ConsumerInfo c = new ConsumerInfo("10.0.0.7", new ServiceKey("com.example.OrderService", "2.0", "blue"),
                Map.of(ProviderInfo.APPLICATION, "checkout & billing", ProviderInfo.PID, "4242"));
        String url = c.toUrl();
        assertTrue(url.startsWith("consumer://10.0.0.7/com.example.OrderService?version=2.0&group=blue&"), url);
        assertTrue(url.contains("application=checkout+%26+billing"), url);
        ConsumerInfo read = ConsumerInfo.fromUrl(url);
        assertEquals(c, read);
        assertEquals("10.0.0.7", read.host());
        assertEquals(Optional.of("checkout & billing"), read.attribute(ProviderInfo.APPLICATION));
        assertEquals(new ServiceKey("com.example.OrderService", "2.0", "blue"), read.service());
    }

    @Test
    void malformedRecordIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsumerInfo.fromUrl("kestrel://10.0.0.7:1/x?version=&group="));
        assertTrue(e.getMessage().contains("Malformed consumer record 'kestrel://10.0.0.7:1/x"), e.getMessage());
    }
}
