package io.kestrel.rpc.core;

/**
 * A read-only snapshot of one of a runtime's connections to a provider.
 *
 * @param address the provider, "host:port"
 * @param state where the connection is in its life: CONNECTING, HANDSHAKING, READY (takes calls),
 *     DRAINING (the provider is going away), RETIRING (no longer used; closes when idle) or CLOSED
 * @param pendingCalls calls sent and not yet answered or timed out (open streams included)
 * @param openStreams streams open now on the connection
 */
public record ConnectionView(String address, String state, int pendingCalls, int openStreams) {
    /** A view without streams (as before streams were counted). */
    public ConnectionView(String address, String state, int pendingCalls) {
        this(address, state, pendingCalls, 0);
    }

    /** Whether the connection takes calls now. */
    public boolean ready() {
        return state.equals("READY");
    }
}
