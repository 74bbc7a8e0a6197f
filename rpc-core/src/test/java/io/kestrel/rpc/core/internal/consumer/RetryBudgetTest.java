package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ResilienceConfig;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The budget's arithmetic on a clock the test moves. */
class RetryBudgetTest {
    private static final ServiceKey SERVICE = new ServiceKey("com.example.Budgeted", "", "");
    private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);

    private RetryBudget budget(int percent, int minPerSecond) {
        return new RetryBudget(SERVICE, ResilienceConfig.builder().retryBudgetPercent(percent)
                .retryBudgetMinPerSecond(minPerSecond).build(), clock::get);
    }

    private static int retriesAllowed(RetryBudget budget, int tries) {
        int allowed = 0;
        for (int i = 0; i < tries; i++) {
            allowed += budget.tryRetry() ? 1 : 0;
        }
        return allowed;
    }

    @Test
    void retriesAreAShareOfTheCallsInTheWindowPlusTheMinimum() {
        RetryBudget b = budget(20, 1);
        for (int i = 0; i < 100; i++) {
            b.call();
        }
        // 20% of 100 calls + 1/s over the 10 s window
        assertEquals(30, retriesAllowed(b, 1_000));
    }

    @Test
    void theWindowMovesOnAndOldCallsAndRetriesStopCounting() {
        RetryBudget b = budget(50, 0);
        for (int i = 0; i < 10; i++) {
            b.call();
        }
        assertEquals(5, retriesAllowed(b, 100));
        clock.addAndGet(Duration.ofSeconds(5).toNanos());
        assertFalse(b.tryRetry(), "still inside the window: spent");
        clock.addAndGet(Duration.ofSeconds(6).toNanos());
        assertFalse(b.tryRetry(), "the old calls left the window too: nothing to retry on");
        for (int i = 0; i < 4; i++) {
            b.call();
        }
        assertEquals(2, retriesAllowed(b, 100));
    }

    @Test
    void withNoShareAndNoMinimumNothingIsRetried() {
        RetryBudget b = budget(0, 0);
        for (int i = 0; i < 1_000; i++) {
            b.call();
        }
        assertFalse(b.tryRetry());
        assertTrue(budget(0, 1).tryRetry(), "the minimum alone allows retries");
    }

    @Test
    void badSettingsAreRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResilienceConfig.builder().retryBudgetPercent(150));
        assertTrue(e.getMessage().contains("retry-budget-percent") && e.getMessage().contains("150"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ResilienceConfig.builder()
                .outlierEjection(Duration.ofSeconds(10)).outlierMaxEjection(Duration.ofSeconds(5)).build());
        assertTrue(e.getMessage().contains("outlier-max-ejection"), e.getMessage());
    }
}
