/**
 * The bootstrap: {@link io.kestrel.rpc.core.RpcRuntime} exports services and creates proxies for
 * references, with cluster fault tolerance and load balancing on top of the transport.
 */
package io.kestrel.rpc.core;
