package io.kestrel.rpc.demo.bid;

/** Where an ad slot sits on the screen. */
public enum AdPosition {
    UNKNOWN,
    ABOVE_THE_FOLD,
    BELOW_THE_FOLD,
    HEADER,
    FOOTER,
    SIDEBAR,
    FULL_SCREEN
}
