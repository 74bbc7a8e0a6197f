/**
 * Spring Boot auto-configuration of Kestrel RPC: the {@code rpc.*} properties, keep-alive and graceful
 * shutdown ({@link io.kestrel.rpc.spring.boot.KestrelRpcAutoConfiguration}).
 */
package io.kestrel.rpc.spring.boot;
