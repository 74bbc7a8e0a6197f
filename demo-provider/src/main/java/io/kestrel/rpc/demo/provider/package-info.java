/**
 * Demo provider: in-memory {@link io.kestrel.rpc.demo.user.UserService} and
 * {@link io.kestrel.rpc.demo.bid.BidService} implementations exported with the Spring XML namespace
 * ({@code provider.xml}); {@link io.kestrel.rpc.demo.provider.ProviderMain} runs them, hosting an embedded
 * ZooKeeper unless {@code rpc.registry.address} names a real one.
 */
package io.kestrel.rpc.demo.provider;
