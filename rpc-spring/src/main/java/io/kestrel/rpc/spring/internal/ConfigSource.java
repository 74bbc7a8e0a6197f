package io.kestrel.rpc.spring.internal;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.springframework.core.env.PropertyResolver;

/**
 * The raw configuration strings of one place the user wrote them (an XML element, an annotation, the
 * Spring {@code Environment}) and the conversions into typed values. Placeholders ({@code ${...}}) are
 * resolved against the environment when a value is read. Every failure is an
 * {@link IllegalArgumentException} whose message names the place and the attribute (or property), so
 * "where do I fix this" is answered by the message alone.
 */
public final class ConfigSource {
    private final String where;
    private final String keyPrefix;
    private final boolean property;
    private final Map<String, String> values;
    private final PropertyResolver resolver;
    private final Set<String> asked; // the names read, for the check against Settings; null: not kept

    private ConfigSource(String where, String keyPrefix, boolean property, Map<String, String> values,
            PropertyResolver resolver, Set<String> asked) {
        this.where = where;
        this.keyPrefix = keyPrefix;
        this.property = property;
        this.values = values;
        this.resolver = resolver;
        this.asked = asked;
    }

    /**
     * Attributes of an XML element or an annotation.
     *
     * @param where how the user finds it, e.g. {@code <rpc:reference id="users">}
     * @param values attribute name to raw text; blank means "not set"
     * @param resolver resolves placeholders; may be null
     */
    public static ConfigSource attributes(String where, Map<String, String> values, PropertyResolver resolver) {
        return new ConfigSource(where, "", false,
                values == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(values)), resolver, null);
    }

    /** As {@link #attributes}, adding every name the binder reads to {@code asked}: how tests hold it to {@link Settings}. */
    static ConfigSource recording(String where, Map<String, String> values, Set<String> asked) {
        return new ConfigSource(where, "", false, Map.copyOf(values), null, asked);
    }

    /**
     * Properties {@code prefix + name} of the Spring {@code Environment}, e.g. prefix {@code rpc.protocol.}.
     */
    public static ConfigSource environment(String prefix, PropertyResolver environment) {
        return new ConfigSource("Spring Environment", prefix, true, null, environment, null);
    }

    /** Where these values come from, e.g. {@code <rpc:protocol>}. */
    public String where() {
        return where;
    }

    /** How an attribute is named in messages: {@code attribute 'port'} or {@code property 'rpc.protocol.port'}. */
    public String label(String name) {
        return (property ? "property '" : "attribute '") + keyPrefix + name + "'";
    }

    /** The resolved, trimmed value, or null when it is not set or blank. */
    public String get(String name) {
        if (asked != null) {
            asked.add(name);
        }
        String raw = property ? resolver.getProperty(keyPrefix + name) : values.get(name);
        if (raw == null) {
            return null;
        }
        String value = raw;
        if (resolver != null && raw.contains("${")) {
            try {
                value = resolver.resolveRequiredPlaceholders(raw);
            } catch (IllegalArgumentException e) {
                throw error(name, raw, e.getMessage(), e);
            }
        }
        value = value.trim();
        return value.isEmpty() ? null : value;
    }

    /** Whether the value is set (not blank). */
    public boolean has(String name) {
        return get(name) != null;
    }

    /** Passes the value to {@code setter} when it is set; a failure of the setter names this attribute. */
    public void ifSet(String name, Consumer<String> setter) {
        String value = get(name);
        if (value != null) {
            try {
                setter.accept(value);
            } catch (IllegalArgumentException e) {
                throw error(name, value, e.getMessage(), e);
            }
        }
    }

    /** Converts the value when it is set; null otherwise. A failed conversion names this attribute. */
    public <T> T map(String name, Function<String, T> parser) {
        String value = get(name);
        if (value == null) {
            return null;
        }
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw error(name, value, e.getMessage(), e);
        }
    }

    /** An error about the value of one attribute. */
    public IllegalArgumentException error(String name, String value, String problem, Throwable cause) {
        String text = where + " " + label(name) + (value != null ? " = \"" + value + "\"" : "") + ": " + problem;
        return new IllegalArgumentException(text, cause);
    }

    /** Whole milliseconds ({@code 1500}) or a number with a unit: {@code 500ms}, {@code 3s}, {@code 2m}, or ISO-8601 {@code PT3S}. */
    public static Duration duration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return positive(Duration.parse(text.trim().toUpperCase(Locale.ROOT)), text);
            }
            if (t.endsWith("ms")) {
                return positive(Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2).trim())), text);
            }
            if (t.endsWith("s")) {
                return positive(Duration.ofSeconds(Long.parseLong(t.substring(0, t.length() - 1).trim())), text);
            }
            if (t.endsWith("m")) {
                return positive(Duration.ofMinutes(Long.parseLong(t.substring(0, t.length() - 1).trim())), text);
            }
            return positive(Duration.ofMillis(Long.parseLong(t)), text);
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("not a duration; write milliseconds (3000) or a number with a unit"
                    + " (500ms, 3s, 2m)", e);
        }
    }

    /** {@link #duration}, or {@code 0} for {@link Duration#ZERO} (settings where 0 turns something off). */
    public static Duration durationOrOff(String text) {
        return text.trim().equals("0") ? Duration.ZERO : duration(text);
    }

    private static Duration positive(Duration d, String text) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("must be greater than zero, was " + text);
        }
        return d;
    }

    /** A decimal int. */
    public static int integer(String text) {
        try {
            return Integer.parseInt(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number", e);
        }
    }

    /** Exactly {@code true} or {@code false} (any case): a typo must not silently mean false. */
    public static boolean bool(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true")) {
            return true;
        }
        if (t.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }

    /** Loads a class by name and checks its type. */
    public static <T> Class<? extends T> type(String name, Class<T> expected, ClassLoader loader) {
        Class<?> c;
        try {
            c = Class.forName(name.trim(), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("class " + name + " is not on the classpath (" + e + ")", e);
        }
        if (!expected.isAssignableFrom(c)) {
            throw new IllegalArgumentException("class " + c.getName() + " does not implement " + expected.getName());
        }
        return c.asSubclass(expected);
    }

    @Override
    public String toString() {
        return property ? where + " (" + keyPrefix + "*)" : where + " " + values;
    }
}
