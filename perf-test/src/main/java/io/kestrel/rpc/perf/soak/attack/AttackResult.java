package io.kestrel.rpc.perf.soak.attack;

import java.util.Map;

/**
 * What one attack did so far (a snapshot; counters only grow).
 *
 * @param kind the attack
 * @param opened connections it opened (connect succeeded)
 * @param closedByProvider of those, connections the provider closed (refused at once, cut, or closed
 *     after a stall); the attack's own closes at the end are not counted
 * @param lifetimeMeanMillis mean time from connect to the provider's close, over those
 * @param lifetimeMaxMillis the longest of those
 * @param requests requests written in full
 * @param answers answers read, by status name (SERVER_BUSY split by the limit its message names)
 * @param errors what went wrong on the attack's side other than the provider closing a connection,
 *     e.g. a connect that failed, or an answer the attack did not expect
 * @param firstError the first of those, or ""
 * @param met whether the attack met the limit it aims at (see {@link #expectation()})
 * @param note how the attack ran, where that is worth saying ("" otherwise)
 */
public record AttackResult(AttackKind kind, long opened, long closedByProvider, long lifetimeMeanMillis,
        long lifetimeMaxMillis, long requests, Map<String, Long> answers, long errors, String firstError, boolean met,
        String note) {

    /** What {@link #met} checks for this kind. */
    public String expectation() {
        return switch (kind) {
            case SLOW_READER, AMPLIFY -> "connections closed after the write-stall timeout";
            case GREEDY -> "answers OK and SERVER_BUSY (memory budget) only";
            case TRICKLE -> "connections cut at the frame timeout";
            case FLOOD -> "connections beyond the per-host limit refused";
            case HANDSHAKE -> "no answer names a service";
            default -> "the well-behaved client keeps being served (PortSoak)";
        };
    }

    /** Answers with this status name (a key of {@link #answers}), 0 if none. */
    public long answers(String status) {
        return answers.getOrDefault(status, 0L);
    }
}
