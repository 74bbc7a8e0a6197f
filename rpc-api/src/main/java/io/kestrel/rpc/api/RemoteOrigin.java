package io.kestrel.rpc.api;

import java.util.Optional;

/**
 * Marks an exception that a provider's method threw: attached by the consumer to every such
 * exception as a {@linkplain Throwable#getSuppressed() suppressed} exception, so a log of it says
 * where it came from ({@code Suppressed: io.kestrel.rpc.api.RemoteOrigin: thrown by provider
 * 10.0.0.5:20880 in com.example.PaymentService#pay, ...}). The exception's own stack trace is the
 * provider's; the frames of this marker are the consumer's call site (for blocking calls; for a
 * method returning a future it has none). Never thrown by the framework.
 */
public final class RemoteOrigin extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String provider;
    private final String method;

    /**
     * @param provider the provider's address, host:port
     * @param method "service#method" of the call
     */
    public RemoteOrigin(String provider, String method) {
        super("thrown by provider " + provider + " in " + method
                + "; the exception's frames are the provider's, the frames below are the consumer's call site");
        this.provider = provider;
        this.method = method;
    }

    /** The marker on {@code t}, if a provider threw it. */
    public static Optional<RemoteOrigin> of(Throwable t) {
        for (Throwable s : t.getSuppressed()) {
            if (s instanceof RemoteOrigin origin) {
                return Optional.of(origin);
            }
        }
        return Optional.empty();
    }

    /** The address (host:port) of the provider that threw the exception. */
    public String provider() {
        return provider;
    }

    /** "service#method" of the call that failed. */
    public String method() {
        return method;
    }

    /** No frames of the thread that builds the marker: the consumer sets its call site instead. */
    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
