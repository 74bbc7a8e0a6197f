package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.demo.bid.BidResponse;
import java.util.Objects;

/** Plausibility checks of call results, shared by the clients of every system. */
public final class ResultCheck {
    private ResultCheck() {
    }

    /** A cheap plausibility check of a result; full equality would dominate the cost of small calls. */
    public static void check(Workload workload, Object expected, Object actual) {
        boolean ok = switch (workload) {
            case BID -> actual instanceof BidResponse r
                    && Objects.equals(r.getId(), ((BidResponse) expected).getId())
                    && r.getSeatBids() != null && r.getSeatBids().size() == 1;
            case ECHO_50K -> actual instanceof String s && s.length() == ((String) expected).length();
            case EXISTS -> expected.equals(actual);
        };
        if (!ok) {
            String shown = String.valueOf(actual);
            throw new IllegalStateException(workload.label() + " returned an unexpected result: "
                    + (shown.length() > 200 ? shown.substring(0, 200) + "..." : shown));
        }
    }
}
