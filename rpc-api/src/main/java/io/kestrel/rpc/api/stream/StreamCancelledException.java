package io.kestrel.rpc.api.stream;

import io.kestrel.rpc.api.RpcException;

/** A stream was cancelled: by either side, by the connection closing, or because its peer broke its rules. */
public class StreamCancelledException extends RpcException {
    private static final long serialVersionUID = 1L;

    public StreamCancelledException(String message) {
        super(message);
    }

    public StreamCancelledException(String message, Throwable cause) {
        super(message, cause);
    }
}
