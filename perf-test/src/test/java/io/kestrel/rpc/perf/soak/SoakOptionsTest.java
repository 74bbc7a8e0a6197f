package io.kestrel.rpc.perf.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(List.of(AttackKind.values()), SoakOptions.parse("--attacks", "all", "--minutes", "1").attacks());
        assertEquals(List.of(AttackKind.SLOW_READER, AttackKind.FLOOD),
                SoakOptions.parse("--attacks", "flood, slow-reader").attacks());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SoakOptions.parse("--attacks", "slowloris"));
        assertTrue(e.getMessage().contains("slowloris") && e.getMessage().contains("trickle"), e.getMessage());
    }
}
