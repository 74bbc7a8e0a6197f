package io.kestrel.rpc.api;

/** The provider could not decode a request (unknown serialization id, a class refused by the allowlist, a corrupt body). The call did not run. */
public class BadRequestException extends RpcException {
    private static final long serialVersionUID = 1L;

    public BadRequestException(String message) {
        super(message);
    }

    public BadRequestException(String message, Throwable cause) {
        super(message, cause);
    }
}
