package io.kestrel.rpc.perf.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class InterceptorCostMainTest {
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void directOpenTelemetryAllocatesLessThanHalfOfWhatObservationDoesPerCall() throws Exception {
        List<InterceptorCostMain.Result> results = InterceptorCostMain.measure(20_000, 3);
        assertEquals(4, results.size(), results.toString());
        double none = results.get(0).bytes();
        double observed = results.get(1).bytes() - none;
        double otel = results.get(2).bytes() - none;
        double metrics = results.get(3).bytes() - none;
        // allocation per call is a property of the code, not of the machine's load (measured: ~7.8 KB and ~2.5 KB)
        assertTrue(observed > 1_000 && otel > 500, "both trace and time every call: " + results);
        assertTrue(metrics > 0 && metrics < otel, "tracing adds to what the metrics alone allocate: " + results);
        assertTrue(otel < observed / 2, "KestrelOpenTelemetry allocates less than half of KestrelTracing's bytes: "
                + results);
    }
}
