package io.kestrel.rpc.demo.user;

/** Lifecycle state of a {@link User} account. */
public enum UserStatus {
    PENDING,
    ACTIVE,
    SUSPENDED,
    DELETED
}
