package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a consumer tells its optimizer's class list from the provider's (published as {@code ServiceFacts}). */
class AgreementDiffTest {
    @Test
    void theDiffNamesTheFirstDifferenceAndWhatEachSideLacks() {
        assertEquals("first difference at position 2: provider registers b, this consumer c; missing here: [b];"
                + " extra here: [c]", Agreement.diff(List.of("a", "b"), List.of("a", "c")));
        assertEquals("first difference at position 1: provider registers a, this consumer b (the same classes in"
                + " another order)", Agreement.diff(List.of("a", "b"), List.of("b", "a")));
        assertEquals("first difference at position 2: provider registers nothing more, this consumer b; extra here: [b]",
                Agreement.diff(List.of("a"), List.of("a", "b")));
    }
}
