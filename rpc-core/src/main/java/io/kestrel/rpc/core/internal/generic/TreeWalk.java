package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.transport.RefusedException;
import io.kestrel.rpc.transport.Status;
import java.util.IdentityHashMap;

/**
 * One walk over a call's trees within {@link GenericLimits}: counts the nodes visited (a shared node each
 * time it is reached), tracks the containers on the current path (a value that contains itself is refused,
 * not followed forever) and the depth, and checks the call's deadline every {@value #DEADLINE_EVERY} nodes.
 * Not thread-safe: one per walk.
 */
public final class TreeWalk {
    /** Nodes between two looks at the clock. */
    static final int DEADLINE_EVERY = 256;

    private final GenericLimits limits;
    private final long deadlineNanos;
    private final IdentityHashMap<Object, Boolean> onPath = new IdentityHashMap<>();
    private long nodes;

    /**
     * @param deadlineNanos the call's deadline on {@link System#nanoTime()}'s clock, 0 for none
     */
    public TreeWalk(GenericLimits limits, long deadlineNanos) {
        this.limits = limits;
        this.deadlineNanos = deadlineNanos;
    }

    /** A walk of the limits the system properties set, without a deadline (a consumer checking its own trees). */
    public static TreeWalk unbounded() {
        return new TreeWalk(GenericLimits.fromSystemProperties(), 0);
    }

    /** The nodes visited so far. */
    public long nodes() {
        return nodes;
    }

    GenericLimits limits() {
        return limits;
    }

    /**
     * Counts one node at {@code path}.
     *
     * @throws TreeException past the node budget
     * @throws RefusedException ({@link Status#SERVER_TIMEOUT}) once the deadline has passed
     */
    void visit(String path) {
        if (++nodes > limits.maxNodes()) {
            throw new TreeException(path, "the call's trees have more than " + limits.maxNodes() + " nodes (shared"
                    + " values counted each time they are reached); send smaller arguments, or raise -D"
                    + GenericLimits.MAX_NODES_PROPERTY + " on the provider");
        }
        if (deadlineNanos != 0 && nodes % DEADLINE_EVERY == 0 && System.nanoTime() - deadlineNanos >= 0) {
            throw new RefusedException(Status.SERVER_TIMEOUT, "the caller's deadline passed while walking the trees"
                    + " of the generic call, after " + nodes + " nodes (at " + path + "); the walk was stopped", null);
        }
    }

    /**
     * Enters the container {@code node} (counted by {@link #visit}); pair with {@link #exit}.
     *
     * @throws TreeException when it contains itself or nests too deeply
     */
    void enter(Object node, String path) {
        if (onPath.size() >= limits.maxDepth()) {
            throw new TreeException(path, "the tree nests more than " + limits.maxDepth() + " levels deep; raise -D"
                    + GenericLimits.MAX_DEPTH_PROPERTY + " on the provider if that is intended");
        }
        if (onPath.put(node, Boolean.TRUE) != null) {
            throw new TreeException(path, "the value contains itself (a " + node.getClass().getName()
                    + "); a tree has no cycles");
        }
    }

    void exit(Object node) {
        onPath.remove(node);
    }
}
