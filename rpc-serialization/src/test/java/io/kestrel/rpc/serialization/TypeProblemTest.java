package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.TypeProblem;
import io.kestrel.rpc.serialization.fixture.Money;
import io.kestrel.rpc.serialization.fixture.QuoteRejectedException;
import io.kestrel.rpc.serialization.fixture.capability.PlainDto;
import io.kestrel.rpc.serialization.fixture.capability.RecordDto;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each serialization's {@link Serialization#problemWith} is measured, not assumed: a type is reported
 * refused exactly when a value of it fails to round-trip, in plain and (where supported) compatible mode.
 */
class TypeProblemTest {
    static List<Serialization> serializations() {
        return SerializationTestSupport.all().toList();
    }

    /** One value of each kind the formats disagree on, plus a plain Serializable DTO and JDK values. */
    private static final List<Object> VALUES = List.of(new PlainDto("a"), new RecordDto("r", 2), Optional.of("x"),
            Optional.empty(), new Money(new BigDecimal("1.25"), "EUR"), new QuoteRejectedException("no", 7), "text", 42L,
            new int[] {1, 2});

    @ParameterizedTest
    @MethodSource("serializations")
    void typeIsReportedRefusedExactlyWhenItsValuesFail(Serialization s) {
        for (boolean compatible : List.of(false, true)) {
            if (compatible && !s.supportsCompatibleMode()) {
                continue;
            }
            Serializer serializer = s.create(SerializationOptions.builder().compatible(compatible)
                    .allowlist(ClassAllowlist.withDefaults().allowPackage(SerializationTestSupport.FIXTURE_PACKAGE)).build());
            for (Object value : VALUES) {
                String failure = null;
                try {
                    Object back = SerializationTestSupport.read(serializer, SerializationTestSupport.write(serializer, value),
                            value instanceof Optional ? Optional.class : value.getClass());
                    assertTrue(back != null && back.getClass() == value.getClass(), s.name() + " read " + back);
                } catch (RuntimeException e) {
                    failure = e.toString();
                }
                Optional<TypeProblem> problem = s.problemWith(value.getClass());
                String what = s.name() + (compatible ? " compatible" : "") + " with " + value.getClass().getName();
                assertEquals(failure != null, problem.isPresent() && problem.get().refused(),
                        what + ": round trip " + (failure == null ? "works" : "fails: " + failure) + ", problemWith says "
                                + problem);
                problem.ifPresent(p -> assertTrue(p.reason().contains(value.getClass().getName())
                        && p.reason().contains(s.name()), p.reason()));
            }
        }
    }
}
