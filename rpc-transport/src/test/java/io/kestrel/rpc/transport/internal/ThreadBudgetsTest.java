package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** A Netty thread reuses one decode budget, started over for each request; other threads get new ones. */
class ThreadBudgetsTest {
    private final DecodeLimits limits = DecodeLimits.defaults();

    @Test
    void aNettyThreadRestartsItsOneBudgetForEachRequest() throws Exception {
        List<DecodeBudget> seen = new ArrayList<>();
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread t = new FastThreadLocalThread(() -> {
            try {
                DecodeBudget first = ThreadBudgets.start(limits, true, System.nanoTime() + 1_000_000_000L, 0);
                first.elements(3);
                seen.add(first);
                DecodeBudget second = ThreadBudgets.start(limits, false, 0, 0);
                seen.add(second);
                assertEquals(0, second.elementsUsed(), "nothing of the request before is counted");
                assertFalse(second.hasDeadline());
                assertTrue(ThreadBudgets.start(limits, true, 42, 0).hasDeadline());
            } catch (Throwable e) {
                failed.set(e);
            }
        });
        t.start();
        t.join();
        if (failed.get() != null) {
            throw new AssertionError(failed.get());
        }
        assertSame(seen.get(0), seen.get(1));
    }

    @Test
    void anyOtherThreadGetsANewBudget() {
        DecodeBudget first = ThreadBudgets.start(limits, true, System.nanoTime() + 1_000_000_000L, 0);
        DecodeBudget second = ThreadBudgets.start(limits, false, 0, 0);
        assertNotSame(first, second);
        assertTrue(first.hasDeadline());
        assertFalse(second.hasDeadline());
    }
}
