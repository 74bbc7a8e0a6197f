package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs in its own surefire execution, in a JVM started WITHOUT any --add-opens flag (see rpc-core's
 * pom): every serialization but fst works end to end there, and fst fails with a message naming the
 * flags it needs. The default execution (which has fst's flags) excludes it.
 */
class NoAddOpensTest {
    private static boolean jvmHasOpens() {
        List<String> args = ManagementFactory.getRuntimeMXBean().getInputArguments();
        return args.stream().anyMatch(a -> a.startsWith("--add-opens"));
    }

    private static boolean inNoOpensExecution() {
        return Boolean.getBoolean("kestrel.test.noOpens");
    }

    @ParameterizedTest
    @ValueSource(strings = {"kryo", "hessian2", "fastjson2", "java", "fory"})
    void serializationWorksWithoutAddOpens(String serialization) {
        assertTrue(inNoOpensExecution(), "run this class through the no-add-opens surefire execution");
        assertFalse(jvmHasOpens(), "this execution must run without --add-opens");
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            EchoService echo = consumer.refer(TestRuntimes.echoReference(provider, serialization).build());
            assertEquals(Payload.sample(3), echo.echoPayload(Payload.sample(3)));
            assertThrows(ArithmeticException.class, () -> echo.divide(1, 0));
        }
    }

    @Test
    void fstNamesTheFlagsItNeeds() {
        assertTrue(inNoOpensExecution(), "run this class through the no-add-opens surefire execution");
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> consumer.refer(TestRuntimes.echoReference(provider, "fst").build()));
            assertTrue(e.getMessage().contains("--add-opens"), e.getMessage());
        }
    }
}
