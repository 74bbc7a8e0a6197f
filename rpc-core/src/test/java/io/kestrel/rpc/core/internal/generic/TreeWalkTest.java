package io.kestrel.rpc.core.internal.generic;

import static io.kestrel.rpc.core.fixture.SharedReferences.bomb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.spi.RefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The walks over a generic call's trees count what they visit: the node budget, not luck, is what stops a
 * tree of shared references. Counted in nodes, not timed.
 */
class TreeWalkTest {
    private static final GenericLimits DEFAULTS = new GenericLimits(GenericLimits.DEFAULT_MAX_NODES,
            GenericLimits.DEFAULT_MAX_DEPTH, GenericLimits.DEFAULT_MAX_NUMBER_DIGITS);
    private static final GenericLimits RAISED = new GenericLimits(Long.MAX_VALUE, GenericLimits.DEFAULT_MAX_DEPTH,
            GenericLimits.DEFAULT_MAX_NUMBER_DIGITS);

    @Test
    void theNodeBudgetIsWhatRefusesTheSharedReferenceBomb() {
        TreeWalk bounded = new TreeWalk(DEFAULTS, 0);
        TreeException e = assertThrows(TreeException.class, () -> PlainTree.checked(bomb(40), "argument 0", bounded));
        assertTrue(e.getMessage().contains("the call's trees have more than 100000 nodes"), e.getMessage());
        assertTrue(bounded.nodes() <= GenericLimits.DEFAULT_MAX_NODES, "counted " + bounded.nodes());

        // the same tree with the budget raised: the check counts every path, 3 * 2^40 - 1 nodes, and lets it through
        TreeWalk raised = new TreeWalk(RAISED, 0);
        PlainTree.checked(bomb(40), "argument 0", raised);
        assertEquals(3 * (1L << 40) - 1, raised.nodes());
    }

    @Test
    void aWalkThatBuildsValuesStopsAtTheDeadlineMidWalk() {
        TreeReader reader = new TreeReader(ClassAllowlist.withDefaults());
        TreeWalk late = new TreeWalk(RAISED, System.nanoTime() - 1);
        RefusedException e = assertThrows(RefusedException.class, () -> reader.read(bomb(40),
                List.class, "argument 0", late));
        assertEquals(Status.SERVER_TIMEOUT, e.status());
        assertTrue(e.getMessage().contains("the caller's deadline passed while walking the trees of the generic call,"
                + " after " + late.nodes() + " nodes"), e.getMessage());
        assertTrue(late.nodes() >= TreeWalk.DEADLINE_EVERY && late.nodes() < 4 * TreeWalk.DEADLINE_EVERY,
                "stopped at the first look at the clock: " + late.nodes());
    }

    @Test
    void theResultTreeIsCountedToo() {
        TreeException e = assertThrows(TreeException.class, () -> TreeWriter.write(bomb(40), new TreeWalk(DEFAULTS, 0)));
        assertTrue(e.getMessage().startsWith("at result[0]"), e.getMessage());
        assertTrue(e.getMessage().contains("more than 100000 nodes"), e.getMessage());
    }

    @Test
    void aValueThatContainsItselfIsRefusedNotFollowed() {
        List<Object> cyclic = new ArrayList<>();
        cyclic.add(Map.of("next", cyclic));
        TreeException check = assertThrows(TreeException.class,
                () -> PlainTree.checked(cyclic, "argument 0", new TreeWalk(DEFAULTS, 0)));
        assertTrue(check.getMessage().contains("at argument 0[0].next: the value contains itself"), check.getMessage());
        TreeException write = assertThrows(TreeException.class, () -> TreeWriter.write(cyclic, new TreeWalk(DEFAULTS, 0)));
        assertTrue(write.getMessage().contains("the value contains itself"), write.getMessage());
    }

    @Test
    void nestingDeeperThanTheLimitIsRefused() {
        List<Object> deep = new ArrayList<>();
        for (int i = 0; i < GenericLimits.DEFAULT_MAX_DEPTH + 1; i++) {
            deep = new ArrayList<>(List.of(deep));
        }
        List<Object> tree = deep;
        TreeException e = assertThrows(TreeException.class,
                () -> PlainTree.checked(tree, "argument 0", new TreeWalk(DEFAULTS, 0)));
        assertTrue(e.getMessage().contains("nests more than " + GenericLimits.DEFAULT_MAX_DEPTH + " levels"),
                e.getMessage());
    }

    @Test
    void aLongKeyIsCutInThePath() {
        String key = "k".repeat(10_000);
        TreeException e = assertThrows(TreeException.class, () -> PlainTree.checked(Map.of(key, new Object()),
                "argument 0", new TreeWalk(DEFAULTS, 0)));
        assertTrue(e.getMessage().startsWith("at argument 0." + "k".repeat(40) + "...: a java.lang.Object"),
                e.getMessage());
    }
}
