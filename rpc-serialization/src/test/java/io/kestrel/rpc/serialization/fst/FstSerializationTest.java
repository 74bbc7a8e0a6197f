package io.kestrel.rpc.serialization.fst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FstSerializationTest {
    @Test
    void missingOpensAreListedAsExactFlags() {
        List<String> missing = FstSerialization.missingOpens((module, pkg) -> !pkg.equals("java.lang") && !pkg.equals("java.sql"));
        assertEquals(List.of("--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.sql/java.sql=ALL-UNNAMED"), missing);
    }

    @Test
    void thisTestJvmHasEveryOpenFstNeeds() {
        // surefire's argLine carries the root POM's fst.jvm.opens; create() would fail otherwise
        Module fst = org.nustaq.serialization.FSTConfiguration.class.getModule();
        List<String> missing = FstSerialization.missingOpens((m, pkg) -> ModuleLayer.boot().findModule(m).orElseThrow().isOpen(pkg, fst));
        assertTrue(missing.isEmpty(), "fst.jvm.opens lacks " + missing);
    }

    @Test
    void allFlagsAreReadyToPaste() {
        String flags = FstSerialization.allOpensFlags();
        assertTrue(flags.startsWith("--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED"), flags);
    }
}
