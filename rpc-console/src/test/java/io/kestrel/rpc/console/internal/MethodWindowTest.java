package io.kestrel.rpc.console.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The sliding window of the live call figures, on a clock the test moves. */
class MethodWindowTest {
    @Test
    void callsLeaveTheWindowOnceItHasPassed() {
        MethodWindow w = new MethodWindow(60_000, 0);
        for (int i = 1; i <= 100; i++) {
            w.record(i * 1000L, i % 10 == 0); // 1..100 ms, every tenth an error
        }
        MethodWindow.Figures now = w.figures(5_000);
        assertEquals(100, now.calls());
        assertEquals(10, now.errors());
        assertEquals(0.1, now.errorRate(), 1e-9);
        assertEquals(50, now.p50Millis(), 1.0);
        assertEquals(99, now.p99Millis(), 1.5);
        assertEquals(100.0 / 5, now.ratePerSecond(), 1e-9);

        w.record(7_000, false);
        assertEquals(101, w.figures(30_000).calls());
        assertEquals(101, w.figures(59_000).calls());
        // the first 100 were drained into the slot of t=5 s; at t=70 s that slot is out of the window
        MethodWindow.Figures later = w.figures(70_000);
        assertEquals(1, later.calls());
        assertEquals(0, later.errors());
        assertEquals(0, w.figures(125_000).calls());
        assertTrue(w.idle(125_000));
    }

    @Test
    void statsTrackMethodsUpToTheLimit() {
        CallStats stats = new CallStats(60_000, () -> 0L);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> rows = (List<Map<String, Object>>) stats.toJson().get("methods");
        assertTrue(rows.isEmpty());
        assertEquals(60L, stats.toJson().get("windowSeconds"));
    }
}
