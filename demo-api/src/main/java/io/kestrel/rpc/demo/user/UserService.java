package io.kestrel.rpc.demo.user;

import java.util.List;

/** Creates and looks up user accounts. Implementations must be thread-safe. */
public interface UserService {
    /**
     * Stores a new user and returns it with its assigned id and creation time.
     *
     * @param user the user to create; its id is ignored
     */
    User create(User user);

    /**
     * The user with this id.
     *
     * @throws UserNotFoundException if there is none
     */
    User get(long id);

    /**
     * A page of users ordered by id.
     *
     * @param offset number of users to skip, at least 0
     * @param limit largest number of users returned, at least 1
     * @return never null; empty past the end
     */
    List<User> list(int offset, int limit);

    /** Whether a user with this id exists. */
    boolean exists(long id);
}
