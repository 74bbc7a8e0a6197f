package io.kestrel.rpc.transport.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The response attachments of one call on the provider, of either protocol: created when a service or an
 * interceptor sets the first one (most calls set none and pay nothing). A call is its own supplier of them,
 * so the hot path allocates no supplier either.
 */
public abstract class ResponseAttachments implements Supplier<Map<String, String>> {
    private volatile Map<String, String> attachments; // created when a response attachment is set

    /** The attachments the answer will carry, created on first use; safe from any thread. */
    public Map<String, String> responseAttachments() {
        Map<String, String> m = attachments;
        if (m == null) {
            synchronized (this) {
                m = attachments;
                if (m == null) {
                    m = new ConcurrentHashMap<>(4);
                    attachments = m;
                }
            }
        }
        return m;
    }

    /** This call, as the supplier of {@link #responseAttachments()}. */
    public Supplier<Map<String, String>> responseAttachmentsSupplier() {
        return this;
    }

    /** As {@link #responseAttachments()}. */
    @Override
    public Map<String, String> get() {
        return responseAttachments();
    }

    /** What the answer carries: the attachments set, or none (without creating them). */
    protected Map<String, String> answerAttachments() {
        Map<String, String> m = attachments;
        return m == null ? Map.of() : m;
    }
}
