package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The warm-up formula and how it is read from a registry record. */
class WarmupTest {
    private static final Warmup TEN_SECONDS_FROM_1000 = new Warmup(1_000, 10_000);

    @Test
    void weightRampsLinearlyFromOneToTheFullWeight() {
        assertEquals(1, TEN_SECONDS_FROM_1000.weight(100, 1_000), "just started: at least 1");
        assertEquals(1, TEN_SECONDS_FROM_1000.weight(100, 1_050), "0.5%: still at least 1");
        assertEquals(10, TEN_SECONDS_FROM_1000.weight(100, 2_000));
        assertEquals(50, TEN_SECONDS_FROM_1000.weight(100, 6_000));
        assertEquals(99, TEN_SECONDS_FROM_1000.weight(100, 10_999));
        assertEquals(100, TEN_SECONDS_FROM_1000.weight(100, 11_000), "warm");
        assertEquals(100, TEN_SECONDS_FROM_1000.weight(100, 1_000_000));
        assertEquals(35, TEN_SECONDS_FROM_1000.weight(70, 6_000), "a share of its own weight");
    }

    @Test
    void zeroWeightStaysZeroAndAStartInTheFutureCountsAsJustStarted() {
        assertEquals(0, TEN_SECONDS_FROM_1000.weight(0, 6_000));
        assertEquals(1, TEN_SECONDS_FROM_1000.weight(100, 500), "clock of the provider ahead of ours");
    }

    @Test
    void readFromTheRecordOnlyWhenItPublishesBoth() {
        ProviderInfo plain = new ProviderInfo("127.0.0.1", 20880, new ServiceKey("a.B", "", ""), List.of((byte) 28),
                100, List.of("m"));
        assertNull(Warmup.of(plain));
        assertNull(Warmup.of(plain.withAttributes(Map.of(ProviderInfo.START_TIME, "1000"))), "start time alone");
        assertNull(Warmup.of(plain.withAttributes(Map.of(ProviderInfo.WARMUP, "10000"))), "warm-up alone");
        assertNull(Warmup.of(plain.withAttributes(Map.of(ProviderInfo.WARMUP, "ten", ProviderInfo.START_TIME, "1"))),
                "unreadable: full weight (logged)");
        assertEquals(TEN_SECONDS_FROM_1000, Warmup.of(plain.withAttributes(Map.of(ProviderInfo.WARMUP, "10000",
                ProviderInfo.START_TIME, "1000"))));
    }
}
