package io.kestrel.rpc.api;

import io.kestrel.rpc.api.internal.ServerContext;
import io.kestrel.rpc.api.security.CallerIdentity;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-thread call context. On the consumer, attachments set here before a call travel with that
 * call to the provider and are then cleared (one set of attachments belongs to one call). On the
 * provider, during an invocation, {@link #current()} holds the attachments the consumer sent, the
 * consumer's address and, when it proved one, its identity ({@link #getCaller()}).
 *
 * <p>Attachments are string keys and string values (like gRPC metadata): they are encoded by the
 * frame codec, not by the serializer, so they never widen the deserialization allowlist.
 *
 * <p>Not thread-safe by design: each thread has its own instance.
 */
public final class RpcContext {
    private static final ThreadLocal<RpcContext> CURRENT = ThreadLocal.withInitial(RpcContext::new);

    static {
        ServerContext.install(new ServerContext.Access() {
            @Override
            public Object enter(Map<String, String> attachments, String remoteAddress, CallerIdentity caller) {
                RpcContext ctx = current();
                Snapshot previous = new Snapshot(ctx.attachments, ctx.remoteAddress, ctx.caller);
                ctx.attachments = new HashMap<>(attachments);
                ctx.remoteAddress = remoteAddress;
                ctx.caller = caller;
                return previous;
            }

            @Override
            public void restore(Object previous) {
                RpcContext ctx = current();
                Snapshot s = (Snapshot) previous;
                ctx.attachments = s.attachments();
                ctx.remoteAddress = s.remoteAddress();
                ctx.caller = s.caller();
            }
        });
    }

    private Map<String, String> attachments = new HashMap<>();
    private String remoteAddress;
    private CallerIdentity caller;

    private RpcContext() {
    }

    /** The context of the calling thread, never null. */
    public static RpcContext current() {
        return CURRENT.get();
    }

    /** Adds an attachment to the next call made from this thread; a null value removes the key. */
    public RpcContext setAttachment(String key, String value) {
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("attachment key must be a non-empty string");
        }
        if (value == null) {
            attachments.remove(key);
        } else {
            attachments.put(key, value);
        }
        return this;
    }

    /** The attachment with this key, or null. */
    public String getAttachment(String key) {
        return attachments.get(key);
    }

    /** A read-only view of the attachments. */
    public Map<String, String> getAttachments() {
        return Collections.unmodifiableMap(attachments);
    }

    /** On the provider, during an invocation: the consumer's "host:port"; otherwise null. */
    public String getRemoteAddress() {
        return remoteAddress;
    }

    /**
     * On the provider, during an invocation: who is calling, as verified for the caller's connection
     * (its client certificate with mutual TLS, its token with an authenticator); null for an
     * anonymous caller, and on the consumer.
     */
    public CallerIdentity getCaller() {
        return caller;
    }

    /**
     * Takes the attachments for an outgoing call and leaves this context empty. Framework use.
     */
    public Map<String, String> takeAttachments() {
        if (attachments.isEmpty()) {
            return Map.of();
        }
        Map<String, String> taken = attachments;
        attachments = new HashMap<>();
        return taken;
    }

    /** What {@link ServerContext#enter} replaced. */
    private record Snapshot(Map<String, String> attachments, String remoteAddress, CallerIdentity caller) {
    }
}
