/** Netty frame codec, server, and the multiplexed client connection. */
package io.kestrel.rpc.transport;
