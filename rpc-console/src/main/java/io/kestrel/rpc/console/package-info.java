/**
 * The opt-in web console of a Kestrel RPC runtime: {@link io.kestrel.rpc.console.KestrelConsole}, attached from
 * outside ({@code RpcRuntime.builder().addOn(..)}, or {@code <rpc:console>} / {@code rpc.console.*} in Spring), with
 * its settings in {@link io.kestrel.rpc.console.ConsoleConfig}.
 */
package io.kestrel.rpc.console;
