package io.kestrel.rpc.demo.bid;

/** How the winning price of an auction is determined. */
public enum AuctionType {
    FIRST_PRICE,
    SECOND_PRICE
}
