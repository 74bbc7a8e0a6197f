package io.kestrel.rpc.api.serialization;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Mutation check for the bound on caches keyed by names from the wire ({@link TypeNameLimits#nameCacheSize()}):
 * the same stream of distinct allowed names fills the allowlist's decision cache in proportion to the names
 * with the bound out of reach, and leaves it within the bound with the default, so the bound is what stops the
 * growth. The limits are read once when {@link TypeNameLimits} loads (every cache of the process shares them),
 * so the comparison runs in two child JVMs, one with {@code -Dkestrel.rpc.serialization.nameCacheSize} out of
 * reach, rather than by switching the setting within this one.
 */
class TypeNameCacheMutationTest {
    private static final int NAMES = 5 * TypeNameLimits.DEFAULT_NAME_CACHE_SIZE;

    @Test
    void theNameCacheBoundIsWhatStopsItsGrowth() throws Exception {
        int bounded = cachedAfterDistinctNames(null);
        int unbounded = cachedAfterDistinctNames("-D" + TypeNameLimits.NAME_CACHE_SIZE_PROPERTY + "=100000000");
        assertTrue(bounded <= TypeNameLimits.DEFAULT_NAME_CACHE_SIZE, "default: " + bounded + " cached decisions");
        assertTrue(unbounded >= NAMES, "out of reach: " + unbounded + " cached decisions for " + NAMES + " names");
        System.out.printf("name cache: %d distinct names leave %d cached decisions with the default bound, %d with"
                + " it out of reach%n", NAMES, bounded, unbounded);
    }

    /** Runs {@link #main} in a child JVM (with {@code option} if not null) and returns the cache size it printed. */
    private static int cachedAfterDistinctNames(String option) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = option == null
                ? new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                        TypeNameCacheMutationTest.class.getName())
                : new ProcessBuilder(java, option, "-cp", System.getProperty("java.class.path"),
                        TypeNameCacheMutationTest.class.getName());
        Process child = builder.redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not finish");
        assertEquals(0, child.exitValue(), output);
        assertTrue(output.startsWith("cached="), output);
        return Integer.parseInt(output.trim().substring("cached=".length()));
    }

    /** The attack: distinct names under an allowed package, as a stream naming classes would bring them. */
    public static void main(String[] args) {
        ClassAllowlist allowlist = ClassAllowlist.withDefaults().allowPackage("com.example");
        for (int i = 0; i < NAMES; i++) {
            if (!allowlist.isAllowed("com.example.Generated" + i)) {
                throw new AssertionError("com.example.Generated" + i + " refused");
            }
        }
        System.out.println("cached=" + allowlist.cachedDecisions());
    }
}
