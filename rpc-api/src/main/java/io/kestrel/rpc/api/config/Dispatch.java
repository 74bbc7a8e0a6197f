package io.kestrel.rpc.api.config;

import java.util.Locale;

/**
 * Where a provider runs a service's methods ({@code dispatch} on the service; property
 * {@code rpc.service.dispatch}).
 *
 * <p>A method dispatched <em>direct</em> is decoded, called and answered on the connection's I/O
 * thread, without the hand-off to the business executor (the cheapest path for a small call). It
 * must never block: while it runs, no other request or response of the connections that share the
 * I/O thread moves. A blocking RPC call made from it is refused with {@link IllegalStateException};
 * other blocking (locks, JDBC, {@code Thread.sleep}, {@code future.get()}) cannot be detected and
 * stalls the I/O thread. A method returning {@link java.util.concurrent.CompletionStage} is called on
 * the I/O thread too and must only start its work there; the answer is written when its stage
 * completes, on whatever thread completes it.
 */
public enum Dispatch {
    /**
     * The default: direct for methods annotated {@link io.kestrel.rpc.api.NonBlocking} (or in an
     * interface so annotated) and for methods returning a {@link java.util.concurrent.CompletionStage}
     * (their work is asynchronous: the method only starts it); the business executor for the others.
     */
    AUTO,
    /** Every method on the business executor (the protocol's {@code threads}), asynchronous ones too. */
    POOL,
    /** Every method on the I/O thread; for services whose methods never block. */
    DIRECT;

    /**
     * Parses {@code auto}, {@code pool} or {@code direct} (any case).
     *
     * @throws IllegalArgumentException naming the value and the accepted ones
     */
    public static Dispatch parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(Locale.ROOT);
        return switch (v) {
            case "auto" -> AUTO;
            case "pool" -> POOL;
            case "direct" -> DIRECT;
            default -> throw new IllegalArgumentException("dispatch \"" + value + "\" is not one of auto (default:"
                    + " direct for @NonBlocking and CompletableFuture methods), pool (every method on the business"
                    + " threads), direct (every method on the I/O thread; it must never block)");
        };
    }

    /** The configuration value, e.g. "direct". */
    public String value() {
        return name().toLowerCase(Locale.ROOT);
    }
}
