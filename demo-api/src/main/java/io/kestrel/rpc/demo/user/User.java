package io.kestrel.rpc.demo.user;

import java.io.Serializable;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** A user account. Mutable bean; not thread-safe. */
public class User implements Serializable {
    private static final long serialVersionUID = 1L;

    private long id;
    private String name;
    private String email;
    private Instant created;
    private UserStatus status;
    private List<String> tags;

    public User() {
    }

    public User(long id, String name, String email, Instant created, UserStatus status, List<String> tags) {
        this.id = id;
        this.name = name;
        this.email = email;
        this.created = created;
        this.status = status;
        this.tags = tags;
    }

    public long getId() {
        return id;
    }

    public void setId(long id) {
        this.id = id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getEmail() {
        return email;
    }

    public void setEmail(String email) {
        this.email = email;
    }

    public Instant getCreated() {
        return created;
    }

    public void setCreated(Instant created) {
        this.created = created;
    }

    public UserStatus getStatus() {
        return status;
    }

    public void setStatus(UserStatus status) {
        this.status = status;
    }

    public List<String> getTags() {
        return tags;
    }

    public void setTags(List<String> tags) {
        this.tags = tags;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof User u)) {
            return false;
        }
        return id == u.id && Objects.equals(name, u.name) && Objects.equals(email, u.email)
                && Objects.equals(created, u.created) && status == u.status && Objects.equals(tags, u.tags);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, name, email, created, status, tags);
    }

    @Override
    public String toString() {
        return "User{id=" + id + ", name=" + name + ", email=" + email + ", created=" + created + ", status="
                + status + ", tags=" + tags + "}";
    }
}
