package io.kestrel.rpc.perf.report;

import java.util.Locale;

/** How byte counts and durations read on the console and in the report. */
public final class Units {
    private Units() {
    }

    /** "812 B", "12.3 KB", "1.20 MB"; "-" if unknown. */
    public static String bytes(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "-";
        }
        if (Math.abs(v) < 10_000) {
            return String.format(Locale.ROOT, "%.0f B", v);
        }
        if (Math.abs(v) < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f KB", v / 1024);
        }
        return String.format(Locale.ROOT, "%.2f MB", v / (1024 * 1024));
    }

    /** "1m05s" style. */
    public static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 60 ? String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60) : s + "s";
    }
}
