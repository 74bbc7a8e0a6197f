package io.kestrel.rpc.api.internal;

import io.kestrel.rpc.api.RpcContext;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Framework plumbing, not for applications: installs the {@link RpcContext} of an incoming call on
 * the thread that serves it, and puts back what was there afterwards. {@link RpcContext} hands this
 * class its private access when it is initialised, so the public {@code RpcContext} type carries no
 * server-side methods.
 */
public final class ServerContext {
    /** What {@link RpcContext} lets the framework do with its per-thread state. */
    public interface Access {
        Object enter(Map<String, String> attachments, String remoteAddress, long deadlineNanos,
                Supplier<Map<String, String>> responseAttachments);

        void restore(Object previous);
    }

    private static volatile Access access;

    private ServerContext() {
    }

    /** Called once, by {@link RpcContext}'s static initialiser. */
    public static void install(Access a) {
        if (access != null) {
            throw new IllegalStateException("RpcContext access is installed already");
        }
        access = Objects.requireNonNull(a);
    }

    /**
     * Makes an incoming call's attachments, caller address, deadline and response attachments the
     * current thread's context.
     *
     * @param deadlineNanos on {@link System#nanoTime()}'s clock; 0 for none
     * @param responseAttachments the map the call's answer will carry (modifiable), created on first use
     * @return what to pass to {@link #restore} when the call is done
     */
    public static Object enter(Map<String, String> attachments, String remoteAddress, long deadlineNanos,
            Supplier<Map<String, String>> responseAttachments) {
        Access a = access;
        if (a == null) {
            RpcContext.current(); // initialises RpcContext, which installs its access
            a = access;
        }
        return a.enter(attachments, remoteAddress, deadlineNanos, responseAttachments);
    }

    /** Puts back the context {@link #enter} replaced. */
    public static void restore(Object previous) {
        access.restore(previous);
    }
}
