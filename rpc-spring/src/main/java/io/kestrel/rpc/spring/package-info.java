/**
 * Spring integration: the {@code http://kestrel.io/schema/rpc} XML namespace (see
 * {@code META-INF/kestrel-rpc.xsd}), the {@link io.kestrel.rpc.spring.EnableKestrelRpc},
 * {@link io.kestrel.rpc.spring.RpcService} and {@link io.kestrel.rpc.spring.RpcReference} annotations, and
 * the beans both of them create: one {@link io.kestrel.rpc.core.RpcRuntime} per context, services exported
 * when the context starts and unregistered and drained when it closes, references as startup-checked proxies.
 * This is the only module that imports Spring.
 */
package io.kestrel.rpc.spring;
