package io.kestrel.rpc.serialization.fory;

import io.kestrel.rpc.api.internal.SystemProperties;

/**
 * Bounds on the class definitions (fory's {@code TypeDef}s: a class name and its field layout) a compatible-mode
 * stream makes the reader decode and keep. In compatible mode every value carries the definitions of its classes;
 * fory caches each definition that differs from the local class, per engine pool and never evicted, so without
 * bounds a caller sending ever new layouts of one allowed class would grow that cache for good. Fory 1.6 refuses a
 * definition past these limits ("Remote schema version limit exceeded ... The data may be malicious"), before it
 * is cached; the call fails as a bad request. Fory's own defaults, made explicit and settable:
 * <ul>
 *   <li>{@value #MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY} ({@value #DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE}): distinct
 *       layouts of one class kept;</li>
 *   <li>{@value #MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE_PROPERTY}
 *       ({@value #DEFAULT_MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE}): layouts kept in all, as an average per class
 *       (the total is at least fory's fixed 8,192);</li>
 *   <li>{@value #MAX_TYPE_META_BYTES_PROPERTY} ({@value #DEFAULT_MAX_TYPE_META_BYTES}): bytes of one definition;</li>
 *   <li>{@value #MAX_TYPE_FIELDS_PROPERTY} ({@value #DEFAULT_MAX_TYPE_FIELDS}): fields of one definition.</li>
 * </ul>
 * Fixed inside fory (no setting): at most 8,192 distinct classes with remote definitions per engine pool, and its
 * cache of encoded names (32,768 entries of at most 2,048 bytes). Classes named in a definition pass the allowlist
 * first, and the engine does not stand in for classes it cannot load ({@code deserializeUnknownClass} off), so the
 * classes behind those 8,192 are classes of the class path. Read from the system properties when a serializer is
 * created. Immutable.
 */
public final class ForyTypeDefLimits {
    public static final String MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY =
            "kestrel.rpc.serialization.fory.maxSchemaVersionsPerType";
    public static final String MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE_PROPERTY =
            "kestrel.rpc.serialization.fory.maxAverageSchemaVersionsPerType";
    public static final String MAX_TYPE_META_BYTES_PROPERTY = "kestrel.rpc.serialization.fory.maxTypeMetaBytes";
    public static final String MAX_TYPE_FIELDS_PROPERTY = "kestrel.rpc.serialization.fory.maxTypeFields";
    public static final int DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE = 10;
    public static final int DEFAULT_MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE = 3;
    public static final int DEFAULT_MAX_TYPE_META_BYTES = 4096;
    public static final int DEFAULT_MAX_TYPE_FIELDS = 512;

    private final int maxSchemaVersionsPerType;
    private final int maxAverageSchemaVersionsPerType;
    private final int maxTypeMetaBytes;
    private final int maxTypeFields;

    private ForyTypeDefLimits() {
        maxSchemaVersionsPerType = read(MAX_SCHEMA_VERSIONS_PER_TYPE_PROPERTY, DEFAULT_MAX_SCHEMA_VERSIONS_PER_TYPE);
        maxAverageSchemaVersionsPerType = read(MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE_PROPERTY,
                DEFAULT_MAX_AVERAGE_SCHEMA_VERSIONS_PER_TYPE);
        maxTypeMetaBytes = read(MAX_TYPE_META_BYTES_PROPERTY, DEFAULT_MAX_TYPE_META_BYTES);
        maxTypeFields = read(MAX_TYPE_FIELDS_PROPERTY, DEFAULT_MAX_TYPE_FIELDS);
    }

    /** The limits the system properties set now, the defaults for those unset. */
    public static ForyTypeDefLimits fromSystemProperties() {
        return new ForyTypeDefLimits();
    }

    /** Distinct layouts of one class a reader keeps. */
    public int maxSchemaVersionsPerType() {
        return maxSchemaVersionsPerType;
    }

    /** Layouts kept in all, as an average per class with remote layouts. */
    public int maxAverageSchemaVersionsPerType() {
        return maxAverageSchemaVersionsPerType;
    }

    /** Bytes of one class definition. */
    public int maxTypeMetaBytes() {
        return maxTypeMetaBytes;
    }

    /** Fields of one class definition. */
    public int maxTypeFields() {
        return maxTypeFields;
    }

    private static int read(String property, int fallback) {
        long value = SystemProperties.wholeNumber(property, fallback);
        if (value < 1 || value > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " must be between 1 and "
                    + Integer.MAX_VALUE + " (default " + fallback + ")");
        }
        return (int) value;
    }

    @Override
    public String toString() {
        return "ForyTypeDefLimits{maxSchemaVersionsPerType=" + maxSchemaVersionsPerType
                + ", maxAverageSchemaVersionsPerType=" + maxAverageSchemaVersionsPerType + ", maxTypeMetaBytes="
                + maxTypeMetaBytes + ", maxTypeFields=" + maxTypeFields + "}";
    }
}
