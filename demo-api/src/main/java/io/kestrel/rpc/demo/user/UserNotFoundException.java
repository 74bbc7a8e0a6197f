package io.kestrel.rpc.demo.user;

/** Thrown by {@link UserService#get(long)} when no user has the id; travels back to the caller as itself. */
public class UserNotFoundException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UserNotFoundException(String message) {
        super(message);
    }
}
