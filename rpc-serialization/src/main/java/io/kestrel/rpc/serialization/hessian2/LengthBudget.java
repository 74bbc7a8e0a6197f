package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.HessianProtocolException;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import java.io.ByteArrayInputStream;

/**
 * The bound on length claims while one hessian value is read: the value is held whole in memory, so
 * the bytes still unread are known. Every element of a hessian list or array, and every field name
 * of an object definition, is encoded in at least one byte of its own (its tag), so a claim of more
 * elements than there are bytes left can only come from corrupt or hostile input. Hessian allocates
 * the claimed array before reading any element ({@code new int[length]}, {@code new String[length]},
 * {@code new Object[length]}), so without this check a 5-byte prefix asks for 2^30 elements.
 *
 * <p>Two limits apply to every claim: it may not exceed the bytes left (plus the size of
 * {@link com.caucho.hessian.io.Hessian2Input}'s read-ahead buffer, which may already hold bytes
 * the stream no longer counts), and the sum of all claims in one value may not exceed the value's
 * size. The second limit stops nested claims from adding up: an array claiming as many elements as
 * there are bytes, whose first element is another such array, and so on, would otherwise allocate
 * the input size once per nesting level before any element fails to parse. With it, everything
 * allocated for claims in one value is at most (largest element size) x (value size).
 *
 * <p>It also carries the read's {@link DecodeBudget} to the deserializers, which hessian calls without
 * any context of ours ({@link #decodeBudget()}).
 *
 * <p>One per deserialization, bound to the reading thread by {@link #open}. Not thread-safe.
 */
final class LengthBudget implements AutoCloseable {
    /** Bytes {@code Hessian2Input} reads ahead from its stream (its internal buffer size). */
    static final int READ_AHEAD = 1024;

    private static final ThreadLocal<LengthBudget> ACTIVE = new ThreadLocal<>();

    private final ByteArrayInputStream source;
    private final DecodeBudget decode;
    private long unclaimed;
    private final int totalBytes;

    private LengthBudget(ByteArrayInputStream source, int totalBytes, DecodeBudget decode) {
        this.source = source;
        this.unclaimed = totalBytes;
        this.totalBytes = totalBytes;
        this.decode = decode;
    }

    /** Makes a budget over {@code source} (holding the whole value) active on this thread until closed. */
    static LengthBudget open(ByteArrayInputStream source, int totalBytes, DecodeBudget decode) {
        LengthBudget budget = new LengthBudget(source, totalBytes, decode);
        ACTIVE.set(budget);
        return budget;
    }

    /**
     * The decode budget of the read active on this thread; outside {@link Hessian2Serializer} (no active
     * read) a fresh default budget, so hessian readers used elsewhere keep working.
     */
    static DecodeBudget decodeBudget() {
        LengthBudget active = ACTIVE.get();
        return active != null ? active.decode : DecodeBudget.defaults();
    }

    /**
     * Checks a claim of {@code count} elements against the active budget, if any; hessian readers
     * used outside {@link Hessian2Serializer} (no active budget) are not limited.
     *
     * @throws HessianProtocolException if the claim is negative or cannot fit in the input
     */
    static void claim(int count, String what) throws HessianProtocolException {
        LengthBudget budget = ACTIVE.get();
        if (count < 0) {
            throw new HessianProtocolException("input claims a negative length (" + count + ") for " + what);
        }
        if (budget != null) {
            budget.check(count, what);
        }
    }

    private void check(int count, String what) throws HessianProtocolException {
        long left = (long) source.available() + READ_AHEAD;
        if (count > left || count > unclaimed) {
            throw new HessianProtocolException("input claims " + count + " elements for " + what + " but at most "
                    + Math.min(left, unclaimed) + " bytes are left for them; refusing to allocate for it");
        }
        unclaimed -= count;
    }

    /** Bytes of the whole value. */
    int totalBytes() {
        return totalBytes;
    }

    @Override
    public void close() {
        ACTIVE.remove();
    }
}
