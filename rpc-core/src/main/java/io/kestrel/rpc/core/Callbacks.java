package io.kestrel.rpc.core;

import java.util.Locale;

/**
 * Where the futures of a consumer's asynchronous methods ({@code CompletableFuture}) complete, and so where the
 * callbacks the application chains on them run, and where streams' response observers are called
 * ({@link RpcRuntime.Builder#callbacks}; property {@code rpc.callbacks}; system property
 * {@code kestrel.rpc.consumer.callbacks}).
 */
public enum Callbacks {
    /** The default: on the runtime's callback executor, so that a callback that blocks never stalls an I/O thread. */
    POOL,
    /**
     * On the thread that ends the call (for an answer, the I/O thread of its connection), without waking a pool
     * thread: cheaper per call, but a callback then holds up every answer of that connection while it runs. Streams'
     * response observers are then called on that I/O thread too; a message an observer sends from there needs credit
     * ({@code isReady()}), or {@code onNext} fails instead of waiting. Only for applications whose callbacks and
     * stream observers never block and are short.
     */
    DIRECT;

    /**
     * Parses {@code pool} or {@code direct} (any case).
     *
     * @throws IllegalArgumentException naming the value and the accepted ones
     */
    public static Callbacks parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "pool" -> POOL;
            case "direct" -> DIRECT;
            default -> throw new IllegalArgumentException("callbacks \"" + (v.length() > 40 ? v.substring(0, 40) + "..."
                    : v) + "\" is not one of pool (futures of asynchronous methods complete on the callback executor;"
                    + " the default) or direct (on the thread that ends the call; only for callbacks that never block)");
        };
    }

    /** The configuration value, e.g. "direct". */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
