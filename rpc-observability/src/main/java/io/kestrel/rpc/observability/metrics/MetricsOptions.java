package io.kestrel.rpc.observability.metrics;

import java.util.Arrays;

/**
 * How the duration timers are published.
 *
 * @param percentiles client-side percentiles computed per timer (each in (0, 1]; none: empty)
 * @param histogram whether the timers publish a percentile histogram (buckets a backend such as
 *     Prometheus aggregates across instances)
 */
record MetricsOptions(double[] percentiles, boolean histogram) {
    MetricsOptions {
        percentiles = percentiles.clone();
        for (double p : percentiles) {
            if (!(p > 0 && p <= 1)) {
                throw new IllegalArgumentException("percentiles must be in (0, 1], was " + p + " in "
                        + Arrays.toString(percentiles) + " (KestrelMetrics.Builder.percentiles)");
            }
        }
    }

    @Override
    public double[] percentiles() {
        return percentiles.clone();
    }
}
