package io.kestrel.rpc.api.config;

import java.time.Duration;
import java.util.Objects;

/** Argument checks shared by the builders; messages name the setting and the value. */
final class Checks {
    private Checks() {
    }

    static Duration positive(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(setting + " must be > 0, was " + d);
        }
        return d;
    }

    /** A positive duration of at least one whole millisecond (deadlines travel as milliseconds). */
    static Duration positiveMillis(String setting, Duration d) {
        positive(setting, d);
        if (d.toMillis() < 1) {
            throw new IllegalArgumentException(setting + " must be at least 1 ms, was " + d);
        }
        return d;
    }

    /** Zero (off) or a duration of at least one whole millisecond. */
    static Duration notNegativeMillis(String setting, Duration d) {
        Objects.requireNonNull(d, setting);
        return d.isZero() ? d : positiveMillis(setting + " (0 turns it off)", d);
    }

    static int atLeast(String setting, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(setting + " must be >= " + min + ", was " + value);
        }
        return value;
    }

    static String nonBlank(String setting, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(setting + " must not be empty");
        }
        return value.trim();
    }

    /** Largest token, in UTF-8 bytes: the provider refuses longer ones unread. */
    static final int MAX_TOKEN_BYTES = 16 * 1024;

    /** A token, trimmed; null when null or blank. */
    static String token(String setting, String token) {
        if (token == null || token.isBlank()) {
            return null;
        }
        int bytes = token.trim().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        if (bytes > MAX_TOKEN_BYTES) {
            throw new IllegalArgumentException(setting + " is " + bytes + " bytes; at most " + MAX_TOKEN_BYTES
                    + " are sent");
        }
        return token.trim();
    }

    /** A binary class name such as {@code com.example.UserService} (letters, digits, _, $, dots between parts). */
    static String className(String setting, String value) {
        String name = nonBlank(setting, value);
        if (!name.matches("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*")) {
            throw new IllegalArgumentException(setting + " must be a class name such as com.example.UserService, was '"
                    + name + "'");
        }
        return name;
    }

    static String orEmpty(String value) {
        return value == null ? "" : value.trim();
    }
}
