/**
 * Helpers shared by the built-in serializations: the allowlist-checking class loader and
 * {@link java.io.ObjectInputStream}, and uniform error messages. Not part of the public API; may
 * change without notice.
 */
package io.kestrel.rpc.serialization.internal;
