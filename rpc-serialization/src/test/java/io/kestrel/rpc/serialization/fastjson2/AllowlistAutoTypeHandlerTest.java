package io.kestrel.rpc.serialization.fastjson2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.TypeNameLimits;
import io.kestrel.rpc.serialization.internal.ClassFilter;
import org.junit.jupiter.api.Test;

/** fastjson2's type-name hook: "[" + name arrays within the dimension limit resolve, deeper ones are refused unloaded. */
class AllowlistAutoTypeHandlerTest {
    private final AllowlistAutoTypeHandler handler = new AllowlistAutoTypeHandler(
            new ClassFilter(ClassAllowlist.withDefaults()), getClass().getClassLoader());

    @Test
    void arrayNamesAreBoundedByTheDimensionLimitBeforeAnyClassIsLoaded() {
        int limit = TypeNameLimits.maxArrayDimensions();
        assertEquals(String[][].class, handler.apply("[[java.lang.String", null, 0));
        String deep = "[".repeat(limit + 1) + "java.lang.String";
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> handler.apply(deep, null, 0));
        assertTrue(e.getMessage().contains(limit + 1 + " dimensions, more than the limit of " + limit), e.getMessage());
        String longName = "java.lang." + "X".repeat(TypeNameLimits.maxClassNameChars());
        ClassNotAllowedException tooLong = assertThrows(ClassNotAllowedException.class,
                () -> handler.apply(longName, null, 0));
        assertTrue(tooLong.getMessage().contains("characters, more than the limit of "), tooLong.getMessage());
        assertTrue(tooLong.getMessage().length() < 600, "the name is not echoed whole: " + tooLong.getMessage().length());
    }
}
