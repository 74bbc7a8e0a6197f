package io.kestrel.rpc.demo.provider;

import io.kestrel.rpc.demo.bid.BidFixtures;
import io.kestrel.rpc.demo.bid.BidRequest;
import io.kestrel.rpc.demo.bid.BidResponse;
import io.kestrel.rpc.demo.bid.BidService;
import java.util.Objects;

/**
 * A deterministic bidder: bids on every impression at its floor plus 0.15 (see
 * {@link BidFixtures#responseFor}). Stateless and thread-safe.
 */
public class FixedPriceBidService implements BidService {
    @Override
    public BidResponse bid(BidRequest request) {
        Objects.requireNonNull(request, "request");
        return BidFixtures.responseFor(request);
    }
}
