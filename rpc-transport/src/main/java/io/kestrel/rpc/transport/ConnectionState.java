package io.kestrel.rpc.transport;

/**
 * Where a {@link Connection} is in its life. Only {@link #READY} takes calls.
 *
 * <pre>
 *   CONNECTING --tcp up--> HANDSHAKING --heartbeat answered--> READY --going-away--> DRAINING
 *       ^                        |                               |                     |
 *       +------ channel closed: reconnect with backoff ----------+---------------------+
 *   any state but CLOSED --closeWhenIdle--> RETIRING --calls done--> CLOSED
 *   any state --close--> CLOSED
 * </pre>
 */
public enum ConnectionState {
    /** Connecting, or waiting to reconnect after the connection closed or could not be opened. */
    CONNECTING,
    /** Connected; waiting for the provider's answer to the first heartbeat. */
    HANDSHAKING,
    /** Takes calls. */
    READY,
    /** The provider said it is going away: no new calls here until it is reconnected. */
    DRAINING,
    /** No longer used by any reference: no new calls; closes once the calls already sent end. */
    RETIRING,
    /** Closed for good. */
    CLOSED;

    /** Whether a connection may move from this state to {@code next}. */
    boolean canMoveTo(ConnectionState next) {
        return switch (this) {
            case CLOSED -> false;
            case RETIRING -> next == CLOSED;
            case CONNECTING -> next != DRAINING && next != READY;
            case HANDSHAKING -> next != HANDSHAKING;
            case READY, DRAINING -> next != HANDSHAKING && next != READY;
        };
    }
}
