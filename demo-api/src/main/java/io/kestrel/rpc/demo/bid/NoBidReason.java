package io.kestrel.rpc.demo.bid;

/** Why a bidder declined to bid; absent (null) when it did bid. */
public enum NoBidReason {
    UNKNOWN_ERROR,
    TECHNICAL_ERROR,
    INVALID_REQUEST,
    KNOWN_CRAWLER,
    SUSPECTED_NON_HUMAN,
    BLOCKED_PUBLISHER,
    UNMATCHED_USER
}
