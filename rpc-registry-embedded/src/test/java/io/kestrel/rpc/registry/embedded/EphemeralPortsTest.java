package io.kestrel.rpc.registry.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class EphemeralPortsTest {
    @TempDir
    Path dir;

    @Test
    void aPortInsideTheRangeGetsAWarningNamingTheRangeAndTheFix() throws Exception {
        Path range = write("32768\t60999\n");
        Optional<String> w = EphemeralPorts.warning(40000, range);
        assertTrue(w.isPresent());
        assertTrue(w.get().contains("port 40000 lies in this host's ephemeral port range 32768-60999"), w.get());
        assertTrue(w.get().contains("Use a port below 32768, e.g. the default 2182"), w.get());
        assertTrue(EphemeralPorts.warning(32768, range).isPresent(), "the range's ends are in it");
        assertTrue(EphemeralPorts.warning(60999, range).isPresent(), "the range's ends are in it");
    }

    @Test
    void portsOutsideTheRangeGetNone() throws Exception {
        Path range = write("32768 60999");
        assertEquals(Optional.empty(), EphemeralPorts.warning(EmbeddedRegistryFactory.DEFAULT_PORT, range));
        assertEquals(Optional.empty(), EphemeralPorts.warning(32767, range));
        assertEquals(Optional.empty(), EphemeralPorts.warning(61000, range));
    }

    @Test
    void aMissingOrMalformedRangeGivesNoWarning() throws Exception {
        assertEquals(Optional.empty(), EphemeralPorts.warning(40000, dir.resolve("absent")));
        assertEquals(Optional.empty(), EphemeralPorts.warning(40000, write("not a range")));
        assertEquals(Optional.empty(), EphemeralPorts.warning(40000, write("60999 32768")));
        assertEquals(Optional.empty(), EphemeralPorts.warning(40000, write("32768")));
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void linuxsOwnRangeIsRead() throws Exception {
        String[] parts = Files.readAllLines(EphemeralPorts.LINUX_RANGE).get(0).trim().split("\\s+");
        int low = Integer.parseInt(parts[0]);
        assertTrue(EphemeralPorts.warning(low, EphemeralPorts.LINUX_RANGE).isPresent());
        assertEquals(Optional.empty(), EphemeralPorts.warning(low - 1, EphemeralPorts.LINUX_RANGE));
    }

    private Path write(String text) throws Exception {
        return Files.writeString(Files.createTempFile(dir, "range", ""), text);
    }
}
