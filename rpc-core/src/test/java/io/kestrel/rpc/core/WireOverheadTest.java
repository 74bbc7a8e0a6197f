package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Per-call request overhead, measured from the bytes the client actually wrote to its socket: after
 * the first call on a connection, a one-argument call with no attachments carries exactly 22 bytes
 * beyond its serialized argument (the README's figure), whatever the serialization.
 */
class WireOverheadTest {
    static final List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;
    static final int HEADER_BYTES = 18;
    static final Duration TIMEOUT = Duration.ofSeconds(5);

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void requestCarriesExactly22BytesBeyondItsArgumentAfterTheFirstCall(String serialization) {
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback(), serialization);
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            EchoService echo = consumer.refer(TestRuntimes.echoReference(provider, serialization).timeout(TIMEOUT).build());
            Payload arg = Payload.sample(42);
            echo.echoPayload(arg); // first call defines the method on this connection

            long before = consumer.inspect().snapshot().wire().bytesWritten();
            int calls = 20;
            for (int i = 0; i < calls; i++) {
                echo.echoPayload(arg);
            }
            long written = consumer.inspect().snapshot().wire().bytesWritten() - before;

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TestRuntimes.serializer(serialization, ClassAllowlist.withDefaults().trustTypesOf(EchoService.class))
                    .serialize(arg, out);
            // the body after the header: varint method number (the first method on the connection: 0, 1 byte),
            // varint timeout in ms (5000: 2 bytes), attachment count (0: 1 byte), then the only argument
            // with no length prefix (the last argument never has one)
            int expected = HEADER_BYTES + varintSize(0) + varintSize((int) TIMEOUT.toMillis()) + varintSize(0);
            assertEquals(22, expected, "the README's figure");
            System.out.printf("%-15s request %d bytes on the wire, argument %d bytes, overhead %d bytes%n",
                    serialization, written / calls, out.size(), written / calls - out.size());
            // the total, not an average, so a single odd request (a heartbeat, a re-definition) shows too
            assertEquals((long) calls * (out.size() + expected), written,
                    serialization + ": " + calls + " requests of a " + out.size() + "-byte argument");
        }
    }

    private static int varintSize(int value) {
        int n = 1;
        while ((value & ~0x7F) != 0) {
            n++;
            value >>>= 7;
        }
        return n;
    }
}
