package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.core.fixture.EchoService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values larger than one transport buffer, through real sockets for every serialization: the request
 * and the response are written as composite frames of several pooled buffers (never grown by
 * copying), and read in place from the received frame. The build runs with paranoid leak detection,
 * so a buffer left unreleased on either path fails the build.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LargeBodyTest {
    private static RpcRuntime provider;
    private static RpcRuntime compatibleProvider;
    private static RpcRuntime consumer;

    @BeforeAll
    static void start() {
        provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
        compatibleProvider = TestRuntimes.echoProvider(TestRuntimes.loopback(), "fory" + TestRuntimes.COMPATIBLE);
        consumer = RpcRuntime.builder().build();
    }

    @AfterAll
    static void stop() {
        consumer.close();
        compatibleProvider.close();
        provider.close();
    }

    static java.util.List<String> serializations() {
        return TestRuntimes.SERIALIZATIONS;
    }

    @ParameterizedTest
    @MethodSource("serializations")
    void largeAndSmallValuesRoundTripOneAfterTheOther(String serialization) throws Exception {
        RpcRuntime target = TestRuntimes.compatible(serialization) ? compatibleProvider : provider;
        EchoService s = consumer.refer(TestRuntimes.echoReference(target, serialization).build());
        for (int chars : new int[] {300_000, 5, 50_000, 4_090, 70_000}) {
            String text = text(chars);
            assertEquals(text, s.echo(text), serialization + " " + chars + " chars");
            assertEquals("async:" + text, s.echoAsync(text).get(30, TimeUnit.SECONDS), serialization + " async");
        }
    }

    /** ASCII with some Latin-1 and CJK characters, so every engine's slower string paths run too. */
    private static String text(int chars) {
        StringBuilder b = new StringBuilder(chars + 16);
        for (int i = 0; b.length() < chars; i++) {
            b.append(i).append(i % 11 == 0 ? "\u00e9\u4e2d" : "-");
        }
        return b.substring(0, chars);
    }
}
