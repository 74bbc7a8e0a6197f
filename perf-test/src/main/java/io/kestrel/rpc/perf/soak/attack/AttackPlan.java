package io.kestrel.rpc.perf.soak.attack;

import io.kestrel.rpc.perf.server.LimitsSpec;
import java.time.Duration;

/**
 * Sizes of the attacks and the provider limits of a soak with attacks: small enough that every
 * attack meets its limit within seconds, large enough that the well-behaved load (10 threads on one
 * connection, requests of at most 50 KB) does not.
 *
 * <p>The memory budget is four {@link #UNIT}s plus a reserve of {@link #RESERVE} bytes. The two attacks
 * that hold budget for long, the greedy client's requests and the trickled frames, hold it in whole
 * units (the greedy request's body is a unit plus a few bytes, a trickled frame announces exactly a
 * unit), and a request is taken only if it fits: together they can hold at most four units, so the
 * reserve, smaller than a unit, stays for everything else (the slow reader's and the amplifier's
 * unread answers, under a MiB each, and the well-behaved load). Partial frames may hold half the
 * budget, i.e. two units.
 */
public final class AttackPlan {
    /** The greedy request's body and the trickled frame's announced body: 4 MiB. */
    public static final int UNIT = 4 << 20;
    /** What the attacks holding whole units leave of the budget: 3.5 MiB. */
    public static final int RESERVE = 7 << 19;
    /** The provider's memory budget in a soak with attacks. */
    public static final long BUDGET = 4L * UNIT + RESERVE;
    public static final int MAX_CONNECTIONS = 256;
    public static final int MAX_CONNECTIONS_PER_HOST = 24;
    public static final Duration FRAME_TIMEOUT = Duration.ofSeconds(2);
    public static final Duration WRITE_STALL_TIMEOUT = Duration.ofSeconds(2);
    public static final int WRITE_BUFFER = 256 * 1024;

    /** Characters of the slow reader's echo string (its requests and answers are about this many bytes). */
    public static final int SLOW_READER_CHARS = 256 * 1024;
    /** Requests per second the greedy client starts, and how many it keeps outstanding at most. */
    public static final int GREEDY_RATE = 24;
    public static final int GREEDY_WINDOW = 8;
    /** Server-side delay of each greedy call ({@code existsLater}): what makes its requests stay. */
    public static final int GREEDY_DELAY_MILLIS = 250;
    /** Connections trickling frames at once, and the pause between two bytes on each. */
    public static final int TRICKLE_CONNECTIONS = 12;
    public static final Duration TRICKLE_PACE = Duration.ofMillis(250);
    /** Connections the flood opens per round (beyond the per-host limit), how long it holds them, the pause. */
    public static final int FLOOD_CONNECTIONS = MAX_CONNECTIONS_PER_HOST + 16;
    public static final Duration FLOOD_HOLD = Duration.ofMillis(500);
    public static final Duration FLOOD_PAUSE = Duration.ofMillis(500);

    private AttackPlan() {
    }

    /** The provider's limits as a {@link LimitsSpec} for its JVM's command line. */
    public static String limitsSpec() {
        return new LimitsSpec()
                .set("max-connections", MAX_CONNECTIONS)
                .set("max-connections-per-host", MAX_CONNECTIONS_PER_HOST)
                .set("memory-budget", BUDGET)
                .set("frame-timeout-ms", FRAME_TIMEOUT.toMillis())
                .set("write-stall-timeout-ms", WRITE_STALL_TIMEOUT.toMillis())
                .set("write-buffer", WRITE_BUFFER)
                .toString();
    }
}
