/**
 * Apache Dubbo's {@code dubbo} protocol, the second pair of codecs beside the native one: its 16-byte header,
 * request and response bodies in hessian2, heartbeat events. Not part of the public API; may change without notice.
 */
package io.kestrel.rpc.transport.internal.dubbo;
