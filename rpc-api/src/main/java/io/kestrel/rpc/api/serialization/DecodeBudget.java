package io.kestrel.rpc.api.serialization;

import io.kestrel.rpc.api.DecodeLimitException;
import java.time.Duration;
import java.util.Objects;

/**
 * What decoding one request may still spend: the {@link DecodeLimits} and, optionally, an absolute
 * deadline in {@link System#nanoTime()} terms. One budget covers every value of one call (all its
 * arguments, or its response), so the element and hash-work counts add up across them.
 *
 * <p>Made by the transport per call and passed to
 * {@link Serializer#deserialize(java.io.InputStream, Class, DecodeBudget)}; serializer
 * implementations report their progress through the counting methods ({@link #enter}, {@link #element},
 * ...), each of which throws {@link DecodeLimitException} once a limit is exceeded. The deadline is
 * looked at on the first value and then every {@value #DEADLINE_CHECK_INTERVAL} values, so decoding
 * stops within that many values of it passing.
 *
 * <p>Not thread-safe: one call's values are decoded by one thread at a time. A thread that reads one
 * value after another may {@link #restart} one budget for each instead of making a new one.
 */
public final class DecodeBudget {
    /** Values read between two looks at the clock. */
    public static final int DEADLINE_CHECK_INTERVAL = 8;

    private DecodeLimits limits;
    private long deadlineNanos;
    private boolean hasDeadline;
    /** {@link System#nanoTime()} at the first look at the clock, 0 before it; for the deadline message only. */
    private long startNanos;
    private int depth;
    private int hashNesting;
    private long elements;
    private long hashWork;
    private int sinceDeadlineCheck;
    /** The time now as the caller knew it when it restarted this budget, for the first look at the deadline; 0: none. */
    private long knownNowNanos;

    private DecodeBudget(DecodeLimits limits, long deadlineNanos, boolean hasDeadline) {
        start(limits, deadlineNanos, hasDeadline);
    }

    /** A budget with these limits and no deadline. */
    public static DecodeBudget of(DecodeLimits limits) {
        return new DecodeBudget(limits, 0, false);
    }

    /** A budget with {@link DecodeLimits#defaults()} and no deadline. */
    public static DecodeBudget defaults() {
        return of(DecodeLimits.defaults());
    }

    /**
     * A budget with these limits that also stops decoding once {@code System.nanoTime()} reaches
     * {@code deadlineNanos} (compared overflow-safely, as {@code System.nanoTime() - deadlineNanos >= 0}).
     */
    public static DecodeBudget withDeadline(DecodeLimits limits, long deadlineNanos) {
        return new DecodeBudget(limits, deadlineNanos, true);
    }

    /** A budget whose deadline is {@code timeout} from now; a zero or negative timeout means no deadline. */
    public static DecodeBudget withTimeout(DecodeLimits limits, Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            return of(limits);
        }
        return withDeadline(limits, System.nanoTime() + timeout.toNanos());
    }

    /**
     * Starts this budget over for the next value, as {@link #withDeadline} would make it: nothing counted yet,
     * these limits and this deadline. For a thread that reads one value after another (a connection's event
     * loop, a business thread), so that it needs no new budget per call; the value read before must be done
     * with it.
     *
     * @return this budget
     */
    public DecodeBudget restart(DecodeLimits limits, long deadlineNanos) {
        return start(limits, deadlineNanos, true);
    }

    /**
     * As {@link #restart(DecodeLimits, long)}, for a caller that has just looked at the clock (or knows when the value
     * arrived): the first look at the deadline compares it with {@code nowNanos} instead of reading the clock again,
     * and the looks every {@value #DEADLINE_CHECK_INTERVAL} values after it read the clock as usual. A value small
     * enough never to get there costs no clock read at all.
     *
     * @param nowNanos {@link System#nanoTime()} as the caller last read it; 0 if it did not (the clock is read)
     * @return this budget
     */
    public DecodeBudget restart(DecodeLimits limits, long deadlineNanos, long nowNanos) {
        start(limits, deadlineNanos, true);
        this.knownNowNanos = nowNanos;
        return this;
    }

    /** Starts this budget over for the next value, as {@link #of} would make it (no deadline); see {@link #restart(DecodeLimits, long)}. */
    public DecodeBudget restart(DecodeLimits limits) {
        return start(limits, 0, false);
    }

    private DecodeBudget start(DecodeLimits limits, long deadlineNanos, boolean hasDeadline) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.deadlineNanos = deadlineNanos;
        this.hasDeadline = hasDeadline;
        this.startNanos = 0; // taken at the first look at the clock: a value that never looks costs no clock read
        this.depth = 0;
        this.hashNesting = 0;
        this.elements = 0;
        this.hashWork = 0;
        this.sinceDeadlineCheck = 0;
        this.knownNowNanos = 0;
        return this;
    }

    public DecodeLimits limits() {
        return limits;
    }

    public boolean hasDeadline() {
        return hasDeadline;
    }

    /** The deadline in {@link System#nanoTime()} terms; meaningless unless {@link #hasDeadline()}. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** Values counted so far ({@link #element}, {@link #elements}). */
    public long elementsUsed() {
        return elements;
    }

    /** Hash work counted so far ({@link #chargeHashWork}). */
    public long hashWorkUsed() {
        return hashWork;
    }

    /** Current nesting depth (entered and not yet exited). */
    public int depth() {
        return depth;
    }

    /** Current nesting of hash-based containers. */
    public int hashNesting() {
        return hashNesting;
    }

    /** Hash work still allowed. */
    public long remainingHashWork() {
        return limits.maxHashWork() - hashWork;
    }

    // ---- for serializer implementations ----

    /** One level deeper (a value that holds other values is being read); checks depth and the deadline. */
    public void enter() {
        if (++depth > limits.maxDepth()) {
            throw refused(DecodeLimits.Limit.DEPTH, "values are nested more than " + limits.maxDepth() + " deep");
        }
        tick();
    }

    /** Back out of the level {@link #enter} opened. */
    public void exit() {
        depth--;
    }

    /** A hash-based set or map is being read (call {@link #exitHashed} when it is done). */
    public void enterHashed() {
        if (++hashNesting > limits.maxHashNesting()) {
            throw refused(DecodeLimits.Limit.HASH_NESTING, "hash-based sets and maps are nested more than "
                    + limits.maxHashNesting() + " deep inside one another (each level re-hashes everything below it)");
        }
    }

    public void exitHashed() {
        hashNesting--;
    }

    /** One value read; checks the element count and, every few values, the deadline. */
    public void element() {
        if (++elements > limits.maxElements()) {
            throw refused(DecodeLimits.Limit.ELEMENTS, "the request holds more than " + limits.maxElements() + " values");
        }
        tick();
    }

    /** {@code n} values announced at once (a collection's size, an array's length). */
    public void elements(long n) {
        if (n < 0 || n > limits.maxElements() - elements) {
            throw refused(DecodeLimits.Limit.ELEMENTS, "the request holds more than " + limits.maxElements()
                    + " values (" + elements + " read, " + n + " more announced)");
        }
        elements += n;
        tick();
    }

    /** Adds hash work (values the JDK will visit hashing one key); refuses once over the limit. */
    public void chargeHashWork(long units) {
        hashWork += Math.max(0, units);
        if (hashWork > limits.maxHashWork() || hashWork < 0) {
            throw refused(DecodeLimits.Limit.HASH_WORK, "hashing the keys and set elements of the request would visit more than "
                    + limits.maxHashWork() + " values");
        }
    }

    /** Throws if the deadline has passed. */
    public void checkDeadline() {
        if (hasDeadline) {
            long now = knownNowNanos;
            if (now == 0) {
                now = System.nanoTime();
            } else {
                knownNowNanos = 0; // the first look only
            }
            if (startNanos == 0) {
                startNanos = now;
            }
            if (now - deadlineNanos >= 0) {
                throw new DecodeLimitException(DecodeLimits.Limit.DEADLINE, "decoding stopped: the call's deadline passed "
                        + (now - deadlineNanos) / 1_000_000 + " ms ago, after " + (now - startNanos) / 1_000_000
                        + " ms of decoding and " + elements + " values; " + DecodeLimits.Limit.DEADLINE.howToRaise());
            }
        }
    }

    private void tick() {
        if (sinceDeadlineCheck-- <= 0) {
            sinceDeadlineCheck = DEADLINE_CHECK_INTERVAL - 1;
            checkDeadline();
        }
    }

    /** A refusal of {@code limit}: what happened, the limit's value and setting, and how to raise it. */
    public DecodeLimitException refused(DecodeLimits.Limit limit, String what) {
        return new DecodeLimitException(limit, "decoding refused: " + what + " (limit " + limit.setting() + "="
                + limits.valueOf(limit) + "); " + limit.howToRaise());
    }

    @Override
    public String toString() {
        return "DecodeBudget{" + limits + ", elements=" + elements + ", hashWork=" + hashWork
                + (hasDeadline ? ", deadline in " + (deadlineNanos - System.nanoTime()) / 1_000_000 + " ms" : "") + "}";
    }
}
