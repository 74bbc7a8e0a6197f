package io.kestrel.rpc.core;

/** Where a runtime's registry connection is ({@link RuntimeSnapshot#registry()}). */
public enum RegistryState {
    /** No registry configured (direct mode only). */
    NONE,
    /** Configured, not used yet: it connects on the first export or registry reference. */
    NOT_STARTED,
    /** Reachable. */
    CONNECTED,
    /** Unreachable now (or the runtime is closed); registrations are kept and consumers use the last known providers. */
    DISCONNECTED
}
