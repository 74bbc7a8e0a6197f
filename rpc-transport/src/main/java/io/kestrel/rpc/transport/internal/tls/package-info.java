/**
 * TLS for the native protocol: PEM material checked and reloaded, the handlers that detect a TLS
 * or plaintext peer, and the caller's identity on the provider. Not part of the public API; may
 * change without notice.
 */
package io.kestrel.rpc.transport.internal.tls;
