package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.config.ResilienceConfig;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Outlier ejection for one reference (the rules are {@link ResilienceConfig}'s): counts each provider's
 * timeouts and transport failures in a row, takes a provider out of balancing when they reach the limit,
 * lets one probe call through once its ejection time is over and readmits it when that call is answered.
 * Exceptions the service throws are answers: they never count. Thread-safe; on the call path only a few
 * volatile reads and, after a failure, an atomic increment.
 */
final class OutlierEjection {
    private static final Logger log = LoggerFactory.getLogger(OutlierEjection.class);

    /** One provider's standing, kept in its {@link Endpoint}. */
    static final class State {
        final AtomicInteger failuresInRow = new AtomicInteger();
        /** {@link System#nanoTime()} until which it is ejected; meaningful while {@link #ejected}. */
        volatile long ejectedUntil;
        volatile boolean ejected;
        /** The call sent as the probe after the ejection time, or null. */
        final AtomicReference<Object> probe = new AtomicReference<>();
        /** Ejections in a row, for the back-off (guarded by the {@link OutlierEjection}). */
        int inRow;
        long ejectedAt;
        long readmittedAt = System.nanoTime() - (1L << 50);
        /** Every ejection so far, for the views. */
        volatile long ejections;
    }

    private final ServiceKey service;
    private final Directory directory;
    private final int failures;
    private final long baseNanos;
    private final long maxNanos;
    private final int maxEjectedPercent;

    OutlierEjection(ServiceKey service, Directory directory, ResilienceConfig config) {
        this.service = service;
        this.directory = directory;
        this.failures = config.outlierFailures();
        this.baseNanos = config.outlierEjection().toNanos();
        this.maxNanos = config.outlierMaxEjection().toNanos();
        this.maxEjectedPercent = config.outlierMaxEjectedPercent();
    }

    /** Whether failures of this kind count against the provider: timeouts and failures of the connection. */
    static boolean counts(Throwable failure) {
        return failure instanceof RpcTimeoutException
                || failure instanceof TransportException && !(failure instanceof PayloadTooLargeException);
    }

    /**
     * Whether {@code call} may go to {@code e}: yes unless it is ejected; once its ejection time is over, yes for
     * the one call that becomes its probe.
     */
    boolean admits(Endpoint e, Object call) {
        State s = e.outlier;
        if (!s.ejected) {
            return true;
        }
        return System.nanoTime() - s.ejectedUntil >= 0 && s.probe.compareAndSet(null, call);
    }

    /** {@code call} was admitted to {@code e} but not sent after all: if it was the probe, the next call probes. */
    void notSent(Endpoint e, Object call) {
        e.outlier.probe.compareAndSet(call, null);
    }

    /** Whether {@code e} is out of balancing now. */
    static boolean isEjected(Endpoint e) {
        return e.outlier.ejected;
    }

    /** The answer of {@code call} on {@code e}: a value, or a failure the service itself raised. */
    void answered(Endpoint e, Object call) {
        State s = e.outlier;
        if (s.failuresInRow.get() != 0) {
            s.failuresInRow.set(0);
        }
        // the probe's answer; or any answer once the ejection time is over (a call sent before the ejection, or one
        // sent because no other provider was left): the provider answers, so it takes calls again
        if (s.ejected && (s.probe.get() == call || System.nanoTime() - s.ejectedUntil >= 0)) {
            readmit(e);
        }
    }

    /** {@code call} on {@code e} failed with {@code failure} (its cause, unwrapped). */
    void failed(Endpoint e, Object call, Throwable failure) {
        if (!counts(failure)) {
            answered(e, call);
            return;
        }
        if (failures == 0) {
            return;
        }
        State s = e.outlier;
        if (s.ejected) {
            if (s.probe.get() == call) {
                eject(e, "its probe call failed: " + failure.getMessage());
            }
            return;
        }
        if (s.failuresInRow.incrementAndGet() >= failures) {
            eject(e, s.failuresInRow.get() + " timeouts or transport failures in a row, the last: "
                    + failure.getMessage());
        }
    }

    private synchronized void eject(Endpoint e, String why) {
        State s = e.outlier;
        boolean again = s.ejected;
        if (!again) {
            List<Endpoint> all = directory.endpoints();
            int ejectedNow = 0;
            for (Endpoint x : all) {
                ejectedNow += x.outlier.ejected ? 1 : 0;
            }
            int allowed = Math.min(all.size() - 1, all.size() * maxEjectedPercent / 100);
            if (ejectedNow + 1 > allowed) {
                log.debug("Not ejecting provider {} of {} ({}): {} of {} providers are ejected already, the most "
                        + "allowed (outlier-max-ejected-percent {})", e.address(), service, why, ejectedNow,
                        all.size(), maxEjectedPercent);
                s.failuresInRow.set(0);
                return;
            }
        }
        long now = System.nanoTime();
        if (!again && now - s.readmittedAt > maxNanos) {
            s.inRow = 0; // healthy for a whole maximum ejection since it was last readmitted: start over
        }
        s.inRow++;
        long nanos = Math.min(maxNanos, baseNanos << Math.min(s.inRow - 1, 30));
        if (nanos <= 0) {
            nanos = maxNanos;
        }
        if (!again) {
            s.ejectedAt = now;
        }
        s.ejectedUntil = now + nanos;
        s.ejected = true;
        s.ejections++;
        s.failuresInRow.set(0);
        s.probe.set(null);
        log.warn("Ejected provider {} of {} from balancing for {} ms{}: {}", e.address(), service, nanos / 1_000_000L,
                again ? " again" : "", why);
    }

    private synchronized void readmit(Endpoint e) {
        State s = e.outlier;
        if (!s.ejected) {
            return;
        }
        long now = System.nanoTime();
        s.ejected = false;
        s.readmittedAt = now;
        s.probe.set(null);
        log.info("Readmitted provider {} of {} to balancing: it answered a call after {} ms ejected",
                e.address(), service, (now - s.ejectedAt) / 1_000_000L);
    }
}
