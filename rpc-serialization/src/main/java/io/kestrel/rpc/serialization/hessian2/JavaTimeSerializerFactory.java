package io.kestrel.rpc.serialization.hessian2;

import com.caucho.hessian.io.AbstractSerializerFactory;
import com.caucho.hessian.io.AbstractStringValueDeserializer;
import com.caucho.hessian.io.Deserializer;
import com.caucho.hessian.io.Serializer;
import com.caucho.hessian.io.StringValueSerializer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes {@code java.time} values as hessian objects with one string field (their ISO-8601
 * {@code toString()}) and parses them back. Hessian's default path goes through their
 * {@code writeReplace} proxy {@code java.time.Ser} and its private {@code readResolve}, which JDK 17
 * does not let a library call without {@code --add-opens}.
 */
final class JavaTimeSerializerFactory extends AbstractSerializerFactory {
    private static final Map<String, Function<String, Object>> PARSERS = Map.ofEntries(
            Map.entry(LocalDate.class.getName(), LocalDate::parse),
            Map.entry(LocalTime.class.getName(), LocalTime::parse),
            Map.entry(LocalDateTime.class.getName(), LocalDateTime::parse),
            Map.entry(Instant.class.getName(), Instant::parse),
            Map.entry(Duration.class.getName(), Duration::parse),
            Map.entry(Period.class.getName(), Period::parse),
            Map.entry(ZonedDateTime.class.getName(), ZonedDateTime::parse),
            Map.entry(OffsetDateTime.class.getName(), OffsetDateTime::parse),
            Map.entry(OffsetTime.class.getName(), OffsetTime::parse),
            Map.entry(Year.class.getName(), Year::parse),
            Map.entry(YearMonth.class.getName(), YearMonth::parse),
            Map.entry(MonthDay.class.getName(), MonthDay::parse),
            Map.entry(ZoneOffset.class.getName(), ZoneOffset::of),
            Map.entry("java.time.ZoneRegion", ZoneId::of));

    @Override
    public Serializer getSerializer(Class cl) {
        return PARSERS.containsKey(cl.getName()) ? StringValueSerializer.SER : null;
    }

    @Override
    public Deserializer getDeserializer(Class cl) {
        Function<String, Object> parser = PARSERS.get(cl.getName());
        return parser == null ? null : new ParsingDeserializer(cl, parser);
    }

    /** Reads the string field back through the type's parse method. */
    private static final class ParsingDeserializer extends AbstractStringValueDeserializer {
        private final Class<?> type;
        private final Function<String, Object> parser;

        ParsingDeserializer(Class<?> type, Function<String, Object> parser) {
            this.type = type;
            this.parser = parser;
        }

        @Override
        public Class<?> getType() {
            return type;
        }

        @Override
        protected Object create(String value) {
            return parser.apply(value);
        }
    }
}
