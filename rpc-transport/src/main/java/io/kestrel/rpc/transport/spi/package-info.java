/**
 * The seam between the transport and the invocation layer (rpc-core): what the core implements for the transport
 * to call ({@link io.kestrel.rpc.transport.spi.ServerDispatcher}, {@link io.kestrel.rpc.transport.spi.ServerMethod})
 * and what the two hand each other per call ({@link io.kestrel.rpc.transport.spi.MethodRef},
 * {@link io.kestrel.rpc.transport.spi.IncomingCall}, {@link io.kestrel.rpc.transport.spi.RpcRequest},
 * {@link io.kestrel.rpc.transport.spi.AttachedValue}, {@link io.kestrel.rpc.transport.spi.RefusedException},
 * {@link io.kestrel.rpc.transport.spi.ClientOptions}). The transport carries calls; what a call may do (who may call,
 * where it runs, whether it may be sent again) is decided on the core's side of this seam. For the framework's
 * modules, not for applications; may change without notice.
 */
package io.kestrel.rpc.transport.spi;
