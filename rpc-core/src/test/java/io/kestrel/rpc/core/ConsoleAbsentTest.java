package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ConsoleConfig;
import org.junit.jupiter.api.Test;

/** rpc-core's tests run without io.kestrel:rpc-console: the console stays optional and asking for it says what is missing. */
class ConsoleAbsentTest {
    @Test
    void aRuntimeWithoutTheConsoleArtifactRunsAndAnEnabledConsoleNamesTheArtifact() {
        try (RpcRuntime plain = RpcRuntime.builder().build()) {
            assertEquals(-1, plain.consolePort());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RpcRuntime.builder().console(ConsoleConfig.builder().enabled(true).build()).build());
        assertTrue(e.getMessage().contains("io.kestrel:rpc-console is not on the class path"), e.getMessage());
        assertTrue(e.getMessage().contains("rpc.console.enabled"), e.getMessage());
    }
}
