package io.kestrel.rpc.serialization.internal;

import io.kestrel.rpc.api.serialization.DecodeBudget;

/**
 * Follows one engine's reading of one value against a {@link DecodeBudget}, for engines with a hook
 * around every nested value they read (kryo's {@code readObject} family, fst's
 * {@code readObjectWithHeader}): {@link #beforeValue} and {@link #afterValue} around each, and
 * {@link #hashContainer} when a hash-based set or map starts being filled. From these it keeps the depth
 * and the element count, the nesting of hash-based containers, and, for each value read as an element of
 * a hash-based set or a key of a hash-based map (a map's children alternate key, value), charges its
 * {@link HashCost} before the engine inserts it.
 *
 * <p>One per engine instance; {@link #start} before each top-level value. Not thread-safe. Not part of
 * the public API.
 */
public final class DecodeTracker {
    private static final byte SET = 1;
    private static final byte MAP = 2;

    private DecodeBudget budget; // null between reads: a fresh default one is made only if used there
    private int[] frameDepth = new int[8];
    private byte[] frameKind = new byte[8];
    private int[] frameChildren = new int[8];
    private int frames;

    /** Starts following a top-level value read against {@code budget}. */
    public void start(DecodeBudget budget) {
        this.budget = budget;
        this.frames = 0;
    }

    /** Stops following (drops the budget so it is not kept reachable; allocates nothing). */
    public void finish() {
        this.budget = null;
        this.frames = 0;
    }

    public DecodeBudget budget() {
        if (budget == null) {
            budget = DecodeBudget.defaults();
        }
        return budget;
    }

    /**
     * A nested value is about to be read: one level deeper and one more value (both checked).
     *
     * @return whether the value is a key or set element of the hash-based container being read, to be
     *     passed to {@link #afterValue}
     */
    public boolean beforeValue() {
        budget().enter();
        budget().element();
        int parent = budget().depth() - 1;
        if (frames > 0 && frameDepth[frames - 1] == parent) {
            int top = frames - 1;
            return frameKind[top] == SET || (frameChildren[top]++ & 1) == 0;
        }
        return false;
    }

    /** The value read after {@link #beforeValue}: charges its hash cost if it is about to be hashed. */
    public void afterValue(Object value, boolean hashed) {
        if (hashed) {
            HashCost.charge(budget(), value);
        }
        int depth = budget().depth();
        while (frames > 0 && frameDepth[frames - 1] >= depth) {
            frames--;
            budget().exitHashed();
        }
        budget().exit();
    }

    /** A hash-based set ({@code map == false}) or map starts being filled by the value being read. */
    public void hashContainer(boolean map) {
        if (frames > 0 && frameDepth[frames - 1] == budget().depth()) {
            return; // already marked (an engine may announce one container more than once)
        }
        budget().enterHashed();
        if (frames == frameDepth.length) {
            frameDepth = java.util.Arrays.copyOf(frameDepth, frames * 2);
            frameKind = java.util.Arrays.copyOf(frameKind, frames * 2);
            frameChildren = java.util.Arrays.copyOf(frameChildren, frames * 2);
        }
        frameDepth[frames] = budget().depth();
        frameKind[frames] = map ? MAP : SET;
        frameChildren[frames] = 0;
        frames++;
    }
}
