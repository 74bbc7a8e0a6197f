package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * The decode budget of a request's arguments or a response's value, from one budget per Netty thread
 * restarted for each value that thread decodes, instead of a new budget per call. The I/O threads of
 * both sides and the provider's business threads are Netty's ({@link FastThreadLocalThread}s, whose
 * thread-locals are an array slot). Any other thread (a virtual thread per call, an application's
 * executor) gets a new budget: a thread-local of its own would cost more than the budget.
 *
 * <p>A budget is in use only while one value is decoded, which never starts another decode on the same
 * thread (no callback runs inside a decode), so one per thread is enough.
 */
public final class ThreadBudgets {
    private static final FastThreadLocal<DecodeBudget> BUDGET = new FastThreadLocal<>();

    private ThreadBudgets() {
    }

    /**
     * A budget of {@code limits}, with the deadline {@code deadlineNanos} when {@code hasDeadline}; its first look at
     * the deadline takes {@code nowNanos} for the time now (when the value's frame was read, or the clock as the
     * caller just read it) instead of reading the clock: see {@link DecodeBudget#restart(DecodeLimits, long, long)}.
     * 0: not known, the clock is read.
     */
    public static DecodeBudget start(DecodeLimits limits, boolean hasDeadline, long deadlineNanos, long nowNanos) {
        DecodeBudget budget;
        if (Thread.currentThread() instanceof FastThreadLocalThread) {
            budget = BUDGET.getIfExists();
            if (budget == null) {
                budget = DecodeBudget.of(limits);
                BUDGET.set(budget);
            }
        } else {
            budget = DecodeBudget.of(limits);
        }
        return hasDeadline ? budget.restart(limits, deadlineNanos, nowNanos) : budget.restart(limits);
    }
}
