package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.RefusedException;
import java.util.IdentityHashMap;

/**
 * One walk over a call's trees within {@link GenericLimits}: counts the nodes visited (a shared node each
 * time it is reached, though a check need not walk it again: {@link #enterOnce}), tracks the containers on
 * the current path (a value that contains itself is refused, not followed forever) and the depth, and checks
 * the call's deadline every {@value #DEADLINE_EVERY} nodes. Not thread-safe: one per walk.
 */
final class TreeWalk {
    /** Nodes between two looks at the clock. */
    static final int DEADLINE_EVERY = 256;

    private final GenericLimits limits;
    private final long deadlineNanos;
    /** The containers on the path to the node being visited, with the count before each was visited. */
    private final IdentityHashMap<Object, Long> onPath = new IdentityHashMap<>();
    /** Containers walked to the end, with the nodes each holds (itself included); only for {@link #enterOnce}. */
    private IdentityHashMap<Object, Long> walked;
    private long nodes;
    private long nextClockLook = DEADLINE_EVERY;

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
    void visit(TreePath path) {
        count(1, path);
    }

    private void count(long n, TreePath path) {
        if (n > limits.maxNodes() - nodes) {
            throw new TreeException(path, "the call's trees have more than " + limits.maxNodes() + " nodes (shared"
                    + " values counted each time they are reached); send smaller arguments, or raise -D"
                    + GenericLimits.MAX_NODES_PROPERTY + " on the provider");
        }
        nodes += n;
        if (deadlineNanos != 0 && nodes >= nextClockLook) {
            nextClockLook = nodes + DEADLINE_EVERY;
            if (System.nanoTime() - deadlineNanos >= 0) {
                throw new RefusedException(Status.SERVER_TIMEOUT, "the caller's deadline passed while walking the"
                        + " trees of the generic call, after " + nodes + " nodes (at " + path + "); the walk was"
                        + " stopped", null);
            }
        }
    }

    /**
     * Enters the container {@code node} (counted by {@link #visit}); pair with {@link #exit}.
     *
     * @throws TreeException when it contains itself or nests too deeply
     */
    void enter(Object node, TreePath path) {
        if (onPath.size() >= limits.maxDepth()) {
            throw new TreeException(path, "the tree nests more than " + limits.maxDepth() + " levels deep; raise -D"
                    + GenericLimits.MAX_DEPTH_PROPERTY + " on the provider if that is intended");
        }
        if (onPath.put(node, nodes - 1) != null) {
            throw new TreeException(path, "the value contains itself (a " + node.getClass().getName()
                    + "); a tree has no cycles");
        }
    }

    /**
     * As {@link #enter}, for a walk whose outcome depends on the node alone (a check): a container this walk
     * has been through already is not walked again, its nodes are counted again at once. Returns whether to
     * walk it; a value that holds the same list twice, forty levels deep, costs forty steps, not 2^40.
     */
    boolean enterOnce(Object node, TreePath path) {
        Long size = walked == null ? null : walked.get(node);
        if (size != null) {
            count(size - 1, path); // the visit counted it once
            return false;
        }
        if (walked == null) {
            walked = new IdentityHashMap<>();
        }
        enter(node, path);
        return true;
    }

    /** Leaves the container {@code node}; a walk that skips containers remembers how many nodes it holds. */
    void exit(Object node) {
        Long start = onPath.remove(node);
        if (walked != null && start != null) {
            walked.put(node, nodes - start);
        }
    }
}
