package io.kestrel.rpc.api.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ClassNotAllowedException;
import org.junit.jupiter.api.Test;

/**
 * Names from the wire cost bounded memory in the allowlist: its decision cache stays within its size
 * however many distinct allowed names arrive, and names beyond the length or dimension limits are
 * refused (never cached) with the limit and its setting named, quoting only the start of the name.
 */
class TypeNameLimitsTest {
    @Test
    void theDecisionCacheStaysBoundedUnderDistinctAllowedNames() {
        ClassAllowlist allowlist = ClassAllowlist.withDefaults().allowPackage("com.example");
        int capacity = TypeNameLimits.nameCacheSize();
        for (int i = 0; i < 5 * capacity; i++) {
            assertTrue(allowlist.isAllowed("com.example.Generated" + i)); // any name under an allowed package
            assertTrue(allowlist.isAllowed("[[Ljava.time.Zone" + i + ";"));
        }
        assertTrue(allowlist.cachedDecisions() <= capacity, allowlist.cachedDecisions() + " cached decisions");
        assertTrue(allowlist.isAllowed("java.lang.String"), "still answers after the cache started over");
    }

    @Test
    void deepAndLongNamesAreRefusedWithTheLimitNamedAndNeverCached() {
        ClassAllowlist allowlist = ClassAllowlist.withDefaults();
        int limit = TypeNameLimits.maxArrayDimensions();
        String within = "[".repeat(limit) + "Ljava.lang.String;";
        assertTrue(allowlist.isAllowed(within));
        String deep = "[".repeat(limit + 1) + "Ljava.lang.String;";
        assertFalse(allowlist.isAllowed(deep));
        ClassNotAllowedException e = assertThrows(ClassNotAllowedException.class, () -> allowlist.check(deep));
        assertTrue(e.getMessage().contains("an array type of " + (limit + 1) + " dimensions, more than the limit of "
                + limit) && e.getMessage().contains("-D" + TypeNameLimits.MAX_ARRAY_DIMENSIONS_PROPERTY), e.getMessage());

        String name = "java.time." + "X".repeat(TypeNameLimits.maxClassNameChars());
        ClassNotAllowedException tooLong = assertThrows(ClassNotAllowedException.class, () -> allowlist.check(name));
        assertTrue(tooLong.getMessage().contains("its name has " + name.length() + " characters, more than the limit of "
                + TypeNameLimits.maxClassNameChars()), tooLong.getMessage());
        assertTrue(tooLong.getMessage().length() < 500, "quoted, not echoed: " + tooLong.getMessage().length());
        int cached = allowlist.cachedDecisions();
        allowlist.isAllowed(deep);
        allowlist.isAllowed(name);
        assertEquals(cached, allowlist.cachedDecisions(), "refusals are not cached");
        assertEquals(limit, TypeNameLimits.dimensions(within));
    }
}
