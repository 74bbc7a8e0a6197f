package io.kestrel.rpc.core.internal.generic;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.Currency;
import java.util.Date;
import java.util.Locale;
import java.util.UUID;

/** The values {@link TreeReader} reads from their text form. */
final class TextValues {
    private TextValues() {
    }

    /**
     * The value of a type written as text (UUID, URI, Locale, Currency, char, the java.time types), or of
     * {@code Date} / {@code Instant} written as epoch milliseconds.
     */
    static Object read(Object tree, Class<?> raw, TreePath path) {
        if ((raw == Date.class || raw == Instant.class) && tree instanceof Number n
                && (n instanceof Long || n instanceof Integer)) {
            return raw == Date.class ? new Date(n.longValue()) : Instant.ofEpochMilli(n.longValue());
        }
        if (!(tree instanceof String s)) {
            throw TreeReader.mismatch(path, raw == Date.class || raw == Instant.class
                    ? "an ISO-8601 string or epoch milliseconds for " + raw.getName() : "a string for " + raw.getName(), tree);
        }
        try {
            if (raw == char.class || raw == Character.class) {
                if (s.length() != 1) {
                    throw new TreeException(path, "a char is a string of one character, this one has " + s.length());
                }
                return s.charAt(0);
            }
            return switch (raw.getName()) {
                case "java.util.UUID" -> UUID.fromString(s);
                case "java.net.URI" -> URI.create(s);
                case "java.util.Locale" -> Locale.forLanguageTag(s);
                case "java.util.Currency" -> Currency.getInstance(s);
                case "java.util.Date" -> Date.from(Instant.parse(s));
                case "java.time.Instant" -> Instant.parse(s);
                case "java.time.LocalDate" -> LocalDate.parse(s);
                case "java.time.LocalDateTime" -> LocalDateTime.parse(s);
                case "java.time.LocalTime" -> LocalTime.parse(s);
                case "java.time.OffsetDateTime" -> OffsetDateTime.parse(s);
                case "java.time.ZonedDateTime" -> ZonedDateTime.parse(s);
                case "java.time.Duration" -> Duration.parse(s);
                default -> throw new TreeException(path, "no text form for " + raw.getName());
            };
        } catch (DateTimeParseException | IllegalArgumentException e) {
            if (e instanceof TreeException t) {
                throw t;
            }
            throw new TreeException(path, "'" + PlainTree.excerpt(s) + "' is not a " + raw.getSimpleName()
                    + " (ISO-8601 for dates and times): " + PlainTree.excerpt(String.valueOf(e.getMessage())));
        }
    }
}
