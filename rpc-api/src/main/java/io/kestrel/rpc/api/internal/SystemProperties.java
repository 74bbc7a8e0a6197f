package io.kestrel.rpc.api.internal;

/** Limits read from system properties, parsed once with a message naming the property. Not part of the public API. */
public final class SystemProperties {
    private SystemProperties() {
    }

    /**
     * The whole number system property {@code name} holds ({@code _} separators allowed), {@code fallback} when
     * it is unset or blank.
     *
     * @throws IllegalArgumentException naming the property and its value when it is not a whole number
     */
    public static long wholeNumber(String name, long fallback) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Long.parseLong(value.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            String shown = value.length() > 100 ? value.substring(0, 100) + "..." : value;
            throw new IllegalArgumentException("system property " + name + " must be a whole number, was '" + shown
                    + "'", e);
        }
    }
}
