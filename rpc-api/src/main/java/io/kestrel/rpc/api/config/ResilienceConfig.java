package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How a reference keeps a failing provider from taking its share of calls (outlier ejection) and keeps
 * failover retries from amplifying an outage (the retry budget). Immutable; build with {@link #builder()}.
 * XML: attributes of {@code <rpc:reference>} ({@code outlier-failures}, {@code outlier-ejection},
 * {@code outlier-max-ejection}, {@code outlier-max-ejected-percent}, {@code retry-budget-percent},
 * {@code retry-budget-min-per-second}); defaults for every reference: {@code rpc.reference.*}.
 *
 * <p><b>Outlier ejection.</b> A provider whose calls time out or fail at the transport
 * {@link #outlierFailures()} times in a row is taken out of balancing for {@link #outlierEjection()},
 * doubling on each ejection in a row up to {@link #outlierMaxEjection()}. After that time one call is let
 * through (the probe); if it is answered (a value or the service's own exception) the provider is readmitted,
 * otherwise it is ejected again for twice as long. Exceptions the service throws never count. At most
 * {@link #outlierMaxEjectedPercent()} of a reference's providers are ejected at once, and never the last one
 * taking calls.
 *
 * <p><b>Retry budget.</b> Over a sliding window of 10 s, a reference's failover retries may number at most
 * {@link #retryBudgetPercent()} % of its calls plus {@link #retryBudgetMinPerSecond()} per second of the
 * window; a call whose retry would exceed it fails with its own failure instead (in the spirit of Envoy's and
 * gRPC's retry throttling).
 */
public final class ResilienceConfig {
    private static final ResilienceConfig DEFAULTS = builder().build();

    private final int outlierFailures;
    private final Duration outlierEjection;
    private final Duration outlierMaxEjection;
    private final int outlierMaxEjectedPercent;
    private final int retryBudgetPercent;
    private final int retryBudgetMinPerSecond;

    private ResilienceConfig(Builder b) {
        this.outlierFailures = b.outlierFailures;
        this.outlierEjection = b.outlierEjection;
        this.outlierMaxEjection = b.outlierMaxEjection;
        this.outlierMaxEjectedPercent = b.outlierMaxEjectedPercent;
        this.retryBudgetPercent = b.retryBudgetPercent;
        this.retryBudgetMinPerSecond = b.retryBudgetMinPerSecond;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Every setting at its default. */
    public static ResilienceConfig defaults() {
        return DEFAULTS;
    }

    /**
     * Timeouts or transport failures in a row that eject a provider ({@code outlier-failures}). Default 5;
     * 0 turns outlier ejection off.
     */
    public int outlierFailures() {
        return outlierFailures;
    }

    /** The first ejection's length ({@code outlier-ejection}); doubles on each ejection in a row. Default 1 s. */
    public Duration outlierEjection() {
        return outlierEjection;
    }

    /** The longest ejection ({@code outlier-max-ejection}). Default 30 s. */
    public Duration outlierMaxEjection() {
        return outlierMaxEjection;
    }

    /**
     * The largest share of a reference's providers ejected at once, in percent ({@code outlier-max-ejected-percent}).
     * Default 50; whatever it is, the last provider taking calls is never ejected.
     */
    public int outlierMaxEjectedPercent() {
        return outlierMaxEjectedPercent;
    }

    /** Retries allowed as a share of calls over the last 10 s, in percent ({@code retry-budget-percent}). Default 20. */
    public int retryBudgetPercent() {
        return retryBudgetPercent;
    }

    /**
     * Retries allowed per second on top of {@link #retryBudgetPercent()}, so a reference with few calls can still
     * retry ({@code retry-budget-min-per-second}). Default 10.
     */
    public int retryBudgetMinPerSecond() {
        return retryBudgetMinPerSecond;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ResilienceConfig c && outlierFailures == c.outlierFailures
                && outlierEjection.equals(c.outlierEjection) && outlierMaxEjection.equals(c.outlierMaxEjection)
                && outlierMaxEjectedPercent == c.outlierMaxEjectedPercent && retryBudgetPercent == c.retryBudgetPercent
                && retryBudgetMinPerSecond == c.retryBudgetMinPerSecond;
    }

    @Override
    public int hashCode() {
        return Objects.hash(outlierFailures, outlierEjection, outlierMaxEjection, outlierMaxEjectedPercent,
                retryBudgetPercent, retryBudgetMinPerSecond);
    }

    @Override
    public String toString() {
        return "ResilienceConfig{outlier-failures=" + outlierFailures + ", outlier-ejection="
                + outlierEjection.toMillis() + "ms, outlier-max-ejection=" + outlierMaxEjection.toMillis()
                + "ms, outlier-max-ejected-percent=" + outlierMaxEjectedPercent + ", retry-budget-percent="
                + retryBudgetPercent + ", retry-budget-min-per-second=" + retryBudgetMinPerSecond + "}";
    }

    public static final class Builder {
        private int outlierFailures = 5;
        private Duration outlierEjection = Duration.ofSeconds(1);
        private Duration outlierMaxEjection = Duration.ofSeconds(30);
        private int outlierMaxEjectedPercent = 50;
        private int retryBudgetPercent = 20;
        private int retryBudgetMinPerSecond = 10;

        private Builder() {
        }

        /** See {@link ResilienceConfig#outlierFailures()}; 0 turns ejection off. */
        public Builder outlierFailures(int failures) {
            this.outlierFailures = Checks.atLeast("outlier-failures", failures, 0);
            return this;
        }

        /** See {@link ResilienceConfig#outlierEjection()}; at least 1 ms. */
        public Builder outlierEjection(Duration ejection) {
            this.outlierEjection = Checks.positiveMillis("outlier-ejection", ejection);
            return this;
        }

        /** See {@link ResilienceConfig#outlierMaxEjection()}; at least 1 ms. */
        public Builder outlierMaxEjection(Duration max) {
            this.outlierMaxEjection = Checks.positiveMillis("outlier-max-ejection", max);
            return this;
        }

        /** See {@link ResilienceConfig#outlierMaxEjectedPercent()}; 0 to 100. */
        public Builder outlierMaxEjectedPercent(int percent) {
            this.outlierMaxEjectedPercent = percent("outlier-max-ejected-percent", percent);
            return this;
        }

        /** See {@link ResilienceConfig#retryBudgetPercent()}; 0 to 100 (0 with a minimum of 0: no retries). */
        public Builder retryBudgetPercent(int percent) {
            this.retryBudgetPercent = percent("retry-budget-percent", percent);
            return this;
        }

        /** See {@link ResilienceConfig#retryBudgetMinPerSecond()}; 0 or more. */
        public Builder retryBudgetMinPerSecond(int perSecond) {
            this.retryBudgetMinPerSecond = Checks.atLeast("retry-budget-min-per-second", perSecond, 0);
            return this;
        }

        public ResilienceConfig build() {
            if (outlierMaxEjection.compareTo(outlierEjection) < 0) {
                throw new IllegalArgumentException("outlier-max-ejection (" + outlierMaxEjection.toMillis()
                        + " ms) is shorter than outlier-ejection (" + outlierEjection.toMillis()
                        + " ms); make the maximum at least the first ejection's length");
            }
            return new ResilienceConfig(this);
        }

        private static int percent(String setting, int value) {
            if (value < 0 || value > 100) {
                throw new IllegalArgumentException(setting + " must be between 0 and 100, was " + value);
            }
            return value;
        }
    }
}
