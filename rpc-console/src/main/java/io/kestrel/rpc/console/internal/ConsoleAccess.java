package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.console.ConsoleConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Who may do what: reading is open to whoever reaches the port (127.0.0.1 by default); invoking and mutating
 * must be allowed in the configuration and then carry {@code Authorization: Bearer <token>}, compared in
 * constant time (over SHA-256 digests, so not even the length leaks). A header, not a cookie: a page of
 * another origin cannot make the browser send it (and the console answers no CORS preflight).
 */
final class ConsoleAccess {
    /** Which permission a request needs. */
    enum Action {
        INVOKE("invoking methods", "rpc.console.allow-invoke"),
        MUTATE("taking providers offline or online", "rpc.console.allow-mutations");

        final String what;
        final String setting;

        Action(String what, String setting) {
            this.what = what;
            this.setting = setting;
        }
    }

    /** A refusal: HTTP status and the message for the JSON error. */
    record Refusal(int status, String message) {
    }

    private final ConsoleConfig config;
    private final byte[] tokenDigest;

    ConsoleAccess(ConsoleConfig config) {
        this.config = config;
        this.tokenDigest = config.token() == null ? null : sha256(config.token());
    }

    boolean allowed(Action action) {
        return action == Action.INVOKE ? config.allowInvoke() : config.allowMutations();
    }

    /** Null when the request may proceed. */
    Refusal check(Action action, String authorization) {
        if (!allowed(action)) {
            return new Refusal(403, "this console is read-only for " + action.what + ": set " + action.setting
                    + "=true and rpc.console.token on the application to allow it");
        }
        if (authorization == null || authorization.isBlank()) {
            return new Refusal(401, action.what + " needs the console token: send the header"
                    + " 'Authorization: Bearer <rpc.console.token>' (enter the token at the top of the page)");
        }
        String given = authorization.trim();
        if (!given.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return new Refusal(401, "the Authorization header must be 'Bearer <rpc.console.token>'");
        }
        if (!MessageDigest.isEqual(tokenDigest, sha256(given.substring(7).trim()))) {
            return new Refusal(401, "the console token does not match rpc.console.token");
        }
        return null;
    }

    private static byte[] sha256(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
