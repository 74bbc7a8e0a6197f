package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** A bidder's answer to a {@link BidRequest}: bids grouped by seat, or a no-bid reason. Mutable bean. */
public class BidResponse implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The id of the request this answers. */
    private String id;
    private List<SeatBid> seatBids;
    private String bidId;
    private String currency;
    private NoBidReason noBidReason;
    private Map<String, String> ext;
    /** Time the bidder spent, in microseconds. */
    private long processingMicros;

    public BidResponse() {
    }

    public String getId() {
        return id;
    }

    public void setId(String id) {
        this.id = id;
    }

    public List<SeatBid> getSeatBids() {
        return seatBids;
    }

    public void setSeatBids(List<SeatBid> seatBids) {
        this.seatBids = seatBids;
    }

    public String getBidId() {
        return bidId;
    }

    public void setBidId(String bidId) {
        this.bidId = bidId;
    }

    public String getCurrency() {
        return currency;
    }

    public void setCurrency(String currency) {
        this.currency = currency;
    }

    public NoBidReason getNoBidReason() {
        return noBidReason;
    }

    public void setNoBidReason(NoBidReason noBidReason) {
        this.noBidReason = noBidReason;
    }

    public Map<String, String> getExt() {
        return ext;
    }

    public void setExt(Map<String, String> ext) {
        this.ext = ext;
    }

    public long getProcessingMicros() {
        return processingMicros;
    }

    public void setProcessingMicros(long processingMicros) {
        this.processingMicros = processingMicros;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BidResponse r)) {
            return false;
        }
        return processingMicros == r.processingMicros && Objects.equals(id, r.id)
                && Objects.equals(seatBids, r.seatBids) && Objects.equals(bidId, r.bidId)
                && Objects.equals(currency, r.currency) && noBidReason == r.noBidReason && Objects.equals(ext, r.ext);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, seatBids, bidId, currency, noBidReason, ext, processingMicros);
    }

    @Override
    public String toString() {
        return "BidResponse{id=" + id + ", bidId=" + bidId + ", currency=" + currency + ", noBidReason="
                + noBidReason + ", processingMicros=" + processingMicros + ", ext=" + ext + ", seatBids=" + seatBids + "}";
    }
}
