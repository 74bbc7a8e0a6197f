package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.api.security.CallerIdentity;

/**
 * Who is at the other end of one provider connection, as far as it has proved: written on the
 * connection's event loop by {@link IdentityHandler} (after the TLS handshake, on the consumer's
 * credential), read by the request path for every call. Before anything is proved the caller is
 * anonymous, with the reason for messages. One per connection.
 */
public final class CallerState {
    private volatile CallerIdentity identity;
    private volatile String anonymousBecause;

    /** @param anonymousBecause why a caller that proves nothing more is anonymous */
    public CallerState(String anonymousBecause) {
        this.anonymousBecause = anonymousBecause;
    }

    /** The verified identity, or null for an anonymous caller. */
    public CallerIdentity identity() {
        return identity;
    }

    /** Why the caller is anonymous (no certificate, no token, a rejected token), for messages. */
    public String anonymousBecause() {
        return anonymousBecause;
    }

    void verified(CallerIdentity identity) {
        this.identity = identity;
    }

    void anonymous(String because) {
        this.identity = null;
        this.anonymousBecause = because;
    }
}
