/**
 * The opt-in web console of a Kestrel RPC runtime ({@code RpcRuntime.builder().console(..)},
 * {@code rpc.console.*}): found by the runtime through {@link io.kestrel.rpc.core.RuntimeConsole.Factory}.
 */
package io.kestrel.rpc.console;
