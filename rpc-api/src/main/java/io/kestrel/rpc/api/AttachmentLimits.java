package io.kestrel.rpc.api;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How many attachments one request or response may carry, and how many bytes (UTF-8 keys and values
 * together). Checked when a call is sent (consumer: its request attachments; provider: its response
 * attachments) and when a frame is read. JVM-wide settings, read once:
 * <ul>
 *   <li>{@code kestrel.rpc.attachments.maxCount}, default {@value #DEFAULT_MAX_COUNT}</li>
 *   <li>{@code kestrel.rpc.attachments.maxBytes}, default {@value #DEFAULT_MAX_BYTES} (64 KiB)</li>
 * </ul>
 * Set the same values on both sides: a frame beyond the reader's limits is refused.
 */
public final class AttachmentLimits {
    public static final int DEFAULT_MAX_COUNT = 256;
    public static final int DEFAULT_MAX_BYTES = 64 * 1024;
    public static final String MAX_COUNT_PROPERTY = "kestrel.rpc.attachments.maxCount";
    public static final String MAX_BYTES_PROPERTY = "kestrel.rpc.attachments.maxBytes";

    private static final int MAX_COUNT = positive(MAX_COUNT_PROPERTY, DEFAULT_MAX_COUNT);
    private static final int MAX_BYTES = positive(MAX_BYTES_PROPERTY, DEFAULT_MAX_BYTES);

    private AttachmentLimits() {
    }

    /** Most attachments per request or response. */
    public static int maxCount() {
        return MAX_COUNT;
    }

    /** Most UTF-8 bytes of keys and values together per request or response. */
    public static int maxBytes() {
        return MAX_BYTES;
    }

    /**
     * The problem with these attachments, or null when they are within the limits.
     *
     * @param what what carries them, for the message (e.g. "the request of svc#get")
     */
    public static String violation(Map<String, String> attachments, String what) {
        return violation(attachments, () -> what);
    }

    /**
     * The same, with the description built only when there is a problem (a call path checks every
     * call and must not pay for the message of a refusal it almost never makes).
     */
    public static String violation(Map<String, String> attachments, Supplier<String> what) {
        if (attachments.isEmpty()) {
            return null;
        }
        if (attachments.size() > MAX_COUNT) {
            return what.get() + " carries " + attachments.size() + " attachments, over the limit of " + MAX_COUNT
                    + " (-D" + MAX_COUNT_PROPERTY + "=N raises it, on both sides)";
        }
        long bytes = 0;
        for (Map.Entry<String, String> e : attachments.entrySet()) {
            bytes += utf8Length(e.getKey()) + utf8Length(e.getValue());
        }
        if (bytes > MAX_BYTES) {
            return what.get() + " carries " + bytes + " bytes of attachments, over the limit of " + MAX_BYTES
                    + " bytes (-D" + MAX_BYTES_PROPERTY + "=N raises it, on both sides)";
        }
        return null;
    }

    private static long utf8Length(String s) {
        if (s == null) {
            return 0;
        }
        int n = s.length();
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return s.getBytes(StandardCharsets.UTF_8).length;
            }
        }
        return n;
    }

    private static int positive(String property, int fallback) {
        String v = System.getProperty(property);
        if (v == null || v.isBlank()) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v.trim());
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("system property " + property + " must be a positive integer, was '" + v + "'");
    }
}
