package io.kestrel.rpc.demo.provider;

import io.kestrel.rpc.demo.user.User;
import io.kestrel.rpc.demo.user.UserNotFoundException;
import io.kestrel.rpc.demo.user.UserService;
import io.kestrel.rpc.demo.user.UserStatus;
import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;

/** Users kept in memory, ids assigned from 1 upwards. Thread-safe. */
public class InMemoryUserService implements UserService {
    private final ConcurrentNavigableMap<Long, User> users = new ConcurrentSkipListMap<>();
    private final AtomicLong nextId = new AtomicLong(1);
    private final Clock clock;

    /** Creation times from the system clock. */
    public InMemoryUserService() {
        this(Clock.systemUTC());
    }

    /** Creation times from {@code clock}, for tests. */
    public InMemoryUserService(Clock clock) {
        this.clock = clock;
    }

    @Override
    public User create(User user) {
        if (user == null || user.getName() == null || user.getName().isBlank()) {
            throw new IllegalArgumentException("a user needs a name");
        }
        long id = nextId.getAndIncrement();
        User stored = new User(id, user.getName(), user.getEmail(), clock.instant().truncatedTo(ChronoUnit.MILLIS),
                user.getStatus() != null ? user.getStatus() : UserStatus.PENDING,
                user.getTags() != null ? new ArrayList<>(user.getTags()) : new ArrayList<>());
        users.put(id, stored);
        return copy(stored);
    }

    @Override
    public User get(long id) {
        User u = users.get(id);
        if (u == null) {
            throw new UserNotFoundException("no user with id " + id);
        }
        return copy(u);
    }

    @Override
    public List<User> list(int offset, int limit) {
        if (offset < 0 || limit < 1) {
            throw new IllegalArgumentException("offset must be >= 0 and limit >= 1, were " + offset + " and " + limit);
        }
        List<User> page = new ArrayList<>(Math.min(limit, 100));
        for (User u : users.values()) {
            if (page.size() == limit) {
                break;
            }
            if (offset > 0) {
                offset--;
                continue;
            }
            page.add(copy(u));
        }
        return page;
    }

    @Override
    public boolean exists(long id) {
        return users.containsKey(id);
    }

    private static User copy(User u) {
        return new User(u.getId(), u.getName(), u.getEmail(), u.getCreated(), u.getStatus(), new ArrayList<>(u.getTags()));
    }
}
