package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.Payload;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Per-call request overhead, measured from the bytes the client actually wrote to its socket:
 * after the first call on a connection, request bytes minus the serialized argument stay under 32.
 */
class WireOverheadTest {
    static final List<String> SERIALIZATIONS = TestRuntimes.SERIALIZATIONS;

    @ParameterizedTest
    @FieldSource("SERIALIZATIONS")
    void requestOverheadAfterFirstCallIsUnder32Bytes(String serialization) {
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            EchoService echo = consumer.refer(TestRuntimes.echoReference(provider, serialization).build());
            Payload arg = Payload.sample(42);
            echo.echoPayload(arg); // first call defines the method on this connection

            long before = consumer.transportStats().bytesWritten();
            int calls = 20;
            for (int i = 0; i < calls; i++) {
                echo.echoPayload(arg);
            }
            long perCall = (consumer.transportStats().bytesWritten() - before) / calls;

            Serializer serializer = Serializations.installed().byName(serialization)
                    .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults()).build());
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            serializer.serialize(arg, out);
            long overhead = perCall - out.size();
            System.out.printf("%-9s request %d bytes on the wire, argument %d bytes, overhead %d bytes%n",
                    serialization, perCall, out.size(), overhead);
            assertTrue(overhead < 32, serialization + ": overhead " + overhead + " bytes per request");
            assertTrue(overhead >= 18, serialization + ": overhead below the 18-byte header means the measure is wrong");
        }
    }
}
