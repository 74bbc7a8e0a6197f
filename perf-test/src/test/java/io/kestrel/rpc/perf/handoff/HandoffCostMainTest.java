package io.kestrel.rpc.perf.handoff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class HandoffCostMainTest {
    @Test
    @Timeout(value = 1, unit = TimeUnit.MINUTES)
    void everyScenarioCompletesItsTripsAndReportsTheirCost() {
        List<HandoffCostMain.Result> results = HandoffCostMain.measure(2_000, 1);
        assertEquals(List.of("direct", "pool", "threads"),
                results.stream().map(r -> r.scenario().split(" ")[0]).toList(), results.toString());
        for (HandoffCostMain.Result r : results) {
            // a trip that never ended would hang here (the timeout fails it); one that ended spent time
            assertTrue(r.wallMicros() > 0 && r.cpuMicros() > 0, results.toString());
        }
    }
}
