package io.kestrel.rpc.demo.bid;

/** A bidder: answers a bid request with bids or a no-bid reason. Implementations must be thread-safe. */
public interface BidService {
    /**
     * Bids on the impressions of {@code request}.
     *
     * @param request never null
     * @return a response whose {@link BidResponse#getId()} equals the request's id; never null
     */
    BidResponse bid(BidRequest request);
}
