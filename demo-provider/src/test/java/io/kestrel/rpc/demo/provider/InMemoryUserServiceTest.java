package io.kestrel.rpc.demo.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.demo.user.User;
import io.kestrel.rpc.demo.user.UserNotFoundException;
import io.kestrel.rpc.demo.user.UserStatus;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

class InMemoryUserServiceTest {
    private final InMemoryUserService users = new InMemoryUserService(
            Clock.fixed(Instant.parse("2024-05-01T12:00:00Z"), ZoneOffset.UTC));

    @Test
    void createAssignsIdsAndTimeAndDefaultsStatusToPending() {
        User a = users.create(new User(77, "Ada", "ada@example.org", null, null, null));
        User b = users.create(new User(0, "Bob", null, null, UserStatus.ACTIVE, List.of("x")));

        assertEquals(1, a.getId());
        assertEquals(2, b.getId());
        assertEquals(UserStatus.PENDING, a.getStatus());
        assertEquals(Instant.parse("2024-05-01T12:00:00Z"), a.getCreated());
        assertEquals(a, users.get(1));
    }

    @Test
    void listPagesInIdOrder() {
        for (String n : List.of("a", "b", "c", "d")) {
            users.create(new User(0, n, null, null, null, null));
        }

        assertEquals(List.of("b", "c"), users.list(1, 2).stream().map(User::getName).toList());
        assertEquals(List.of(), users.list(10, 5));
        assertThrows(IllegalArgumentException.class, () -> users.list(0, 0));
    }

    @Test
    void getOfUnknownIdThrowsUserNotFound() {
        UserNotFoundException e = assertThrows(UserNotFoundException.class, () -> users.get(42));
        assertEquals("no user with id 42", e.getMessage());
        assertFalse(users.exists(42));
        users.create(new User(0, "x", null, null, null, null));
        assertTrue(users.exists(1));
    }

    @Test
    void returnedUsersAreCopies() {
        User created = users.create(new User(0, "Ada", null, null, null, List.of("t")));
        created.setName("changed");
        created.getTags().add("u");

        assertEquals("Ada", users.get(1).getName());
        assertEquals(List.of("t"), users.get(1).getTags());
    }
}
