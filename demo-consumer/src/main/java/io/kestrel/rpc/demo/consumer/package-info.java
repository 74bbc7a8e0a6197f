/**
 * Demo consumer wired with annotations: {@link io.kestrel.rpc.demo.consumer.ConsumerMain} starts a Spring
 * context with {@link io.kestrel.rpc.spring.EnableKestrelRpc}, {@link io.kestrel.rpc.demo.consumer.DemoClient}
 * gets its proxies through {@link io.kestrel.rpc.spring.RpcReference}, makes a few calls, measures a short
 * throughput run and exits.
 */
package io.kestrel.rpc.demo.consumer;
