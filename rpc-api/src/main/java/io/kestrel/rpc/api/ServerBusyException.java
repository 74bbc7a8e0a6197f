package io.kestrel.rpc.api;

/** The provider refused the call because its business pool and queue are full, or the consumer's cap on pending calls per connection was reached. Safe to retry elsewhere: the call did not run. */
public class ServerBusyException extends RpcException {
    private static final long serialVersionUID = 1L;

    public ServerBusyException(String message) {
        super(message);
    }

    public ServerBusyException(String message, Throwable cause) {
        super(message, cause);
    }
}
