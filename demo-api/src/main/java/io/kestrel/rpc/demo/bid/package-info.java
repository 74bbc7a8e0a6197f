/**
 * A realistic nested model for benchmarks and demos: an OpenRTB-style bid request and bid response,
 * the {@link io.kestrel.rpc.demo.bid.BidService} contract and deterministic fixtures. Plain
 * serializable Java beans; no implementation of the service lives here.
 */
package io.kestrel.rpc.demo.bid;
