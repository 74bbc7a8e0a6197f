package io.kestrel.rpc.api;

/**
 * The provider refused the call because the service admits only known callers and this consumer
 * proved no identity on its connection (no client certificate, no token, or a token the provider's
 * authenticator rejected; the message says which). The call did not run; sending it elsewhere does
 * not help, so failover never retries it. Fix the consumer's {@code token} or TLS certificate.
 */
public class UnauthenticatedException extends RpcException {
    private static final long serialVersionUID = 1L;

    public UnauthenticatedException(String message) {
        super(message);
    }
}
