package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.TransportException;

/** A peer left a frame incomplete for longer than the frame timeout; the connection is closed. */
public final class FrameTimeoutException extends TransportException {
    public FrameTimeoutException(String message) {
        super(message);
    }
}
