package io.kestrel.rpc.core.internal.shared;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The facts a provider publishes: their record and handshake forms, the class list's compact form. */
class ServiceFactsTest {
    private static final List<String> CLASSES = List.of("com.x.Order", "com.x.Customer", "com.y.Money", "com.y.Money$Unit",
            "com.x.Line", "Plain");

    @Test
    void theClassListIsCompactedByPackageAndReadBack() {
        String compact = ServiceFacts.compact(CLASSES);
        assertEquals("com.x.Order,.Customer,com.y.Money,.Money$Unit,com.x.Line,Plain", compact);
        assertEquals(CLASSES, ServiceFacts.expand(compact));
        assertEquals(CLASSES, ServiceFacts.expand(String.join(",", CLASSES)), "full names read as themselves");
    }

    @Test
    void theFingerprintDependsOnOrder() {
        assertEquals(16, ServiceFacts.fingerprint(CLASSES).length());
        assertEquals(ServiceFacts.fingerprint(CLASSES), ServiceFacts.fingerprint(List.copyOf(CLASSES)));
        assertNotEquals(ServiceFacts.fingerprint(CLASSES), ServiceFacts.fingerprint(List.of("com.x.Customer",
                "com.x.Order", "com.y.Money", "com.y.Money$Unit", "com.x.Line", "Plain")));
    }

    @Test
    void recordAndHandshakeFormsReadBackTheSameFacts() {
        ServiceFacts facts = ServiceFacts.of(List.of((byte) 8, (byte) 2), "kryo", true, "com.x.Opt", CLASSES);
        ProviderInfo record = new ProviderInfo("h", 1, new ServiceKey("com.x.S", "", ""), List.of((byte) 8, (byte) 2),
                100, List.of()).withAttributes(facts.recordAttributes());
        assertEquals(facts, ServiceFacts.fromRecord(ProviderInfo.fromUrl(record.toUrl())));
        assertEquals(facts, ServiceFacts.fromHandshake(facts.handshakeAttributes()));
        assertEquals("8,2", facts.handshakeAttributes().get(ServiceFacts.ACCEPTED));
    }

    @Test
    void aRecordOfAnEarlierVersionHasNoFacts() {
        assertNull(ServiceFacts.fromRecord(new ProviderInfo("h", 1, new ServiceKey("com.x.S", "", ""), List.of((byte) 8),
                100, List.of())));
        assertNull(ServiceFacts.fromHandshake(null));
        assertNull(ServiceFacts.fromHandshake(Map.of()));
    }
}
