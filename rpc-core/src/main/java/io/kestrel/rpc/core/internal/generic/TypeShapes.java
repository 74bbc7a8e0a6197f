package io.kestrel.rpc.core.internal.generic;

import io.kestrel.rpc.api.generic.TypeKind;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Currency;
import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Which tree shape a declared class takes ({@link TypeKind}); one answer for reading, writing and metadata. */
final class TypeShapes {
    static final Set<Class<?>> NUMBERS = Set.of(int.class, long.class, short.class, byte.class, double.class,
            float.class, Integer.class, Long.class, Short.class, Byte.class, Double.class, Float.class,
            BigInteger.class, BigDecimal.class);
    static final Set<Class<?>> TEXT = Set.of(String.class, char.class, Character.class, UUID.class, URI.class,
            Locale.class, Currency.class);
    static final Set<Class<?>> DATES = Set.of(Date.class, Instant.class, LocalDate.class, LocalDateTime.class,
            LocalTime.class, OffsetDateTime.class, ZonedDateTime.class, Duration.class);

    private TypeShapes() {
    }

    static TypeKind kindOf(Class<?> c) {
        if (c == void.class || c == Void.class) {
            return TypeKind.VOID;
        }
        if (c == boolean.class || c == Boolean.class) {
            return TypeKind.BOOLEAN;
        }
        if (NUMBERS.contains(c)) {
            return TypeKind.NUMBER;
        }
        if (TEXT.contains(c)) {
            return TypeKind.STRING;
        }
        if (c.isEnum()) {
            return TypeKind.ENUM;
        }
        if (DATES.contains(c)) {
            return TypeKind.DATE_TIME;
        }
        if (c == byte[].class) {
            return TypeKind.BYTES;
        }
        if (c.isArray() || Collection.class.isAssignableFrom(c)) {
            return TypeKind.COLLECTION;
        }
        if (Map.class.isAssignableFrom(c)) {
            return TypeKind.MAP;
        }
        if (c == Optional.class) {
            return TypeKind.OPTIONAL;
        }
        if (isBean(c)) {
            return TypeKind.BEAN;
        }
        return TypeKind.ANY;
    }

    /** An application class the tree can build: concrete, not the JDK's, not a local or inner class. */
    static boolean isBean(Class<?> c) {
        return !c.isPrimitive() && !c.isArray() && !c.isInterface() && !Modifier.isAbstract(c.getModifiers())
                && !isPlatform(c.getName()) && !c.isAnonymousClass() && !c.isLocalClass()
                && (c.getEnclosingClass() == null || Modifier.isStatic(c.getModifiers()));
    }

    /** JDK and platform classes: never built from a tree field by field. */
    static boolean isPlatform(String name) {
        return name.startsWith("java.") || name.startsWith("javax.") || name.startsWith("jdk.")
                || name.startsWith("sun.") || name.startsWith("com.sun.");
    }
}
