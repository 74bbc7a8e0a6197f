/** The JDK serialization (wire id 3), read through an allowlist-checking {@code ObjectInputStream}. */
package io.kestrel.rpc.serialization.java;
