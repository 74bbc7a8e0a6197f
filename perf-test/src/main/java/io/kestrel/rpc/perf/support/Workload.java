package io.kestrel.rpc.perf.support;

import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;

/**
 * The three call shapes of the benchmark, with the argument every system sends. Arguments are
 * deterministic so that every system moves the same logical payload.
 */
public enum Workload {
    /** {@link BenchmarkService#bid}: the nested bid request in, a bid response out. */
    BID("bid", "bid request -> bid response (nested objects)"),
    /** {@link BenchmarkService#echo}: a 50,000-character string in and back. */
    ECHO_50K("echo-50k", "echo of a 50,000-character string"),
    /** {@link BenchmarkService#exists}: one long in, one boolean out. */
    EXISTS("exists", "exists(long) -> boolean (tiny call)");

    /** Length of the {@link #ECHO_50K} string. */
    public static final int ECHO_LENGTH = 50_000;
    /** The id {@link #EXISTS} asks about; even, so the answer is true. */
    public static final long EXISTS_ID = 1_234_568L;

    private static final String ECHO_TEXT = buildEchoText();

    private final String label;
    private final String description;

    Workload(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /** Short name used on the command line and in reports. */
    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** A new instance of this workload's argument (the bid request is mutable, so each caller gets its own). */
    public Object argument() {
        return switch (this) {
            case BID -> BidFixtures.sampleRequest();
            case ECHO_50K -> ECHO_TEXT;
            case EXISTS -> EXISTS_ID;
        };
    }

    /** What the service answers to {@link #argument()}. */
    public Object expectedResult() {
        return switch (this) {
            case BID -> BidFixtures.sampleResponse();
            case ECHO_50K -> ECHO_TEXT;
            case EXISTS -> Boolean.TRUE;
        };
    }

    /** The declared parameter type of the matching {@link BenchmarkService} method. */
    public Class<?> argumentType() {
        return switch (this) {
            case BID -> BidRequest.class;
            case ECHO_50K -> String.class;
            case EXISTS -> long.class;
        };
    }

    /** The declared return type of the matching {@link BenchmarkService} method. */
    public Class<?> resultType() {
        return switch (this) {
            case BID -> io.kestrel.rpc.demo.bid.BidResponse.class;
            case ECHO_50K -> String.class;
            case EXISTS -> boolean.class;
        };
    }

    /** Calls the matching asynchronous service method ({@code *Async}) with {@code argument}. */
    public CompletableFuture<?> invokeAsync(BenchmarkService service, Object argument) {
        return switch (this) {
            case BID -> service.bidAsync((BidRequest) argument);
            case ECHO_50K -> service.echoAsync((String) argument);
            case EXISTS -> service.existsAsync((Long) argument);
        };
    }

    /** Calls the matching service method with {@code argument}. */
    public Object invoke(BenchmarkService service, Object argument) {
        return switch (this) {
            case BID -> service.bid((BidRequest) argument);
            case ECHO_50K -> service.echo((String) argument);
            case EXISTS -> service.exists((Long) argument);
        };
    }

    /** The workload with this label, e.g. "echo-50k". */
    public static Workload byLabel(String label) {
        String l = label.trim().toLowerCase(Locale.ROOT);
        for (Workload w : values()) {
            if (w.label.equals(l) || w.name().equalsIgnoreCase(l)) {
                return w;
            }
        }
        throw new IllegalArgumentException("Unknown workload '" + label + "'; known: bid, echo-50k, exists");
    }

    /** Printable ASCII text that repeats with a long period, so that it does not compress to nothing. */
    private static String buildEchoText() {
        StringBuilder sb = new StringBuilder(ECHO_LENGTH);
        long x = 0x9E3779B97F4A7C15L;
        while (sb.length() < ECHO_LENGTH) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            int r = (int) ((x >>> 33) % 64);
            sb.append(r < 52 ? (char) (r < 26 ? 'a' + r : 'A' + r - 26) : r < 62 ? (char) ('0' + r - 52) : ' ');
        }
        return sb.toString();
    }
}
