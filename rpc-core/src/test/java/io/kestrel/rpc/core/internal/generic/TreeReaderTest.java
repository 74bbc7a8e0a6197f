package io.kestrel.rpc.core.internal.generic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.fixture.orders.Address;
import io.kestrel.rpc.core.fixture.orders.Gadget;
import io.kestrel.rpc.core.fixture.orders.GadgetFlags;
import io.kestrel.rpc.core.fixture.orders.Money;
import io.kestrel.rpc.core.fixture.orders.OrderService;
import io.kestrel.rpc.core.fixture.orders.Status;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tree-to-type conversion checks every class it would create against the allowlist first. */
class TreeReaderTest {
    @Test
    void aDeclaredBeanOutsideTheAllowlistIsRefusedBeforeItIsInitialised() {
        TreeReader reader = new TreeReader(ClassAllowlist.withDefaults());
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class,
                () -> reader.read(Map.of("command", "calc"), Gadget.class, "argument 0"));
        assertTrue(e.getMessage().contains("Refused to deserialize class " + Gadget.class.getName()), e.getMessage());
        assertFalse(GadgetFlags.INITIALISED.get());
        assertFalse(GadgetFlags.CONSTRUCTED.get());
    }

    @Test
    void elementTypesEnumsAndRecordsAreCheckedToo() {
        TreeReader reader = new TreeReader(ClassAllowlist.withDefaults());
        assertThrows(ClassNotAllowedException.class, () -> reader.read(List.of(Map.of("city", "x")),
                Address[].class, "argument 0"));
        assertThrows(ClassNotAllowedException.class, () -> reader.read("NEW", Status.class, "argument 0"));
        assertThrows(ClassNotAllowedException.class, () -> reader.read(Map.of("amount", 1, "currency", "EUR"),
                Money.class, "argument 0"));
        TreeReader trusting = new TreeReader(ClassAllowlist.withDefaults().trustTypesOf(OrderService.class));
        assertEquals(new Money(new BigDecimal("1"), "EUR"),
                trusting.read(Map.of("amount", 1, "currency", "EUR"), Money.class, "argument 0"));
        assertEquals(Status.NEW, trusting.read("NEW", Status.class, "argument 0"));
    }

    @Test
    void classAndClassLoaderParametersAreNeverFilled() {
        TreeReader reader = new TreeReader(ClassAllowlist.withDefaults());
        TreeException e = assertThrows(TreeException.class, () -> reader.read(GadgetFlags.class.getName(), Class.class,
                "argument 0"));
        assertTrue(e.getMessage().contains("would load a class the caller names"), e.getMessage());
    }
}
