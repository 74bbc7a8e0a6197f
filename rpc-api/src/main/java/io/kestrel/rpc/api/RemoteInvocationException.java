package io.kestrel.rpc.api;

/**
 * The provider's method threw an exception that could not be recreated on the consumer as its own
 * type (its class is unknown here, not allowed, or not serializable). Carries the remote class name
 * and message; {@link #getMessage()} includes both.
 */
public class RemoteInvocationException extends RpcException {
    private static final long serialVersionUID = 1L;

    private final String remoteClassName;
    private final String remoteMessage;

    public RemoteInvocationException(String remoteClassName, String remoteMessage, String context) {
        super(remoteClassName + ": " + remoteMessage + (context == null ? "" : " (" + context + ")"));
        this.remoteClassName = remoteClassName;
        this.remoteMessage = remoteMessage;
    }

    /** Fully qualified class name of the exception thrown by the provider. */
    public String remoteClassName() {
        return remoteClassName;
    }

    /** The message of the provider's exception, possibly null. */
    public String remoteMessage() {
        return remoteMessage;
    }
}
