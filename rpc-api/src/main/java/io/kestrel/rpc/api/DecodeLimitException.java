package io.kestrel.rpc.api;

import io.kestrel.rpc.api.serialization.DecodeLimits;

/**
 * Decoding a value was stopped because it needed more than a {@link DecodeLimits} limit allows, or the
 * call's deadline passed while decoding. Nothing of the value is returned. The message names the limit,
 * its value and the setting that raises it; {@link #limit()} says which one it was.
 */
public class DecodeLimitException extends SerializationException {
    private static final long serialVersionUID = 1L;

    private final DecodeLimits.Limit limit;

    public DecodeLimitException(DecodeLimits.Limit limit, String message) {
        super(message);
        this.limit = limit;
    }

    public DecodeLimitException(DecodeLimits.Limit limit, String message, Throwable cause) {
        super(message, cause);
        this.limit = limit;
    }

    /** The limit that was hit. */
    public DecodeLimits.Limit limit() {
        return limit;
    }
}
