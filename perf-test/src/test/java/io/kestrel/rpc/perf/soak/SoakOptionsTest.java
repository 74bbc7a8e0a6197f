package io.kestrel.rpc.perf.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.soak.attack.AttackKind;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SoakOptionsTest {

    @Test
    void withoutAttacksTheSoakRunsAsBefore() {
        SoakOptions o = SoakOptions.parse();
        assertEquals(Duration.ofMinutes(5), o.window());
        assertEquals(10, o.threads());
        assertTrue(o.attacks().isEmpty());
        assertTrue(SoakOptions.parse("--attacks", "none").attacks().isEmpty());
    }

    @Test
    void attacksAreAllOrAListInTheirOwnOrder() {
        assertEquals(List.of(AttackKind.SLOW_READER, AttackKind.AMPLIFY, AttackKind.GREEDY, AttackKind.TRICKLE,
                AttackKind.FLOOD), SoakOptions.parse("--attacks", "all", "--minutes", "1").attacks());
        assertEquals(List.of(AttackKind.SLOW_READER, AttackKind.FLOOD),
                SoakOptions.parse("--attacks", "flood, slow-reader").attacks());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SoakOptions.parse("--attacks", "slowloris"));
        assertTrue(e.getMessage().contains("slowloris") && e.getMessage().contains("trickle"), e.getMessage());
    }

    @Test
    void thePerPortAttacksRunAloneOnTheChosenPorts() {
        SoakOptions o = SoakOptions.parse("--attacks", "ports", "--minutes", "0.5");
        assertTrue(o.perPort());
        assertTrue(o.attacks().contains(AttackKind.GENERIC_REFS) && o.attacks().contains(AttackKind.HALF_SENT));
        assertTrue(o.attacks().stream().allMatch(k -> k.perPort), o.attacks().toString());
        assertEquals(List.of("native", "dubbo"), o.protocols());
        assertEquals(List.of("dubbo"), SoakOptions.parse("--attacks", "heartbeat-flood", "--protocols", "dubbo")
                .protocols());
        assertFalse(SoakOptions.parse("--attacks", "all").perPort());
        IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                () -> SoakOptions.parse("--attacks", "flood,heartbeat-flood"));
        assertTrue(mixed.getMessage().contains("two runs"), mixed.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> SoakOptions.parse("--attacks", "ports", "--protocols", "grpc"));
        assertTrue(port.getMessage().contains("grpc") && port.getMessage().contains("dubbo"), port.getMessage());
    }
}
