package io.kestrel.rpc.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.NettyLeakCheck;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The leak check sees a buffer nobody released (and this test takes the report, so the class still passes). */
class NettyLeakCheckTest {
    @Test
    void aBufferNeverReleasedIsReportedWithWhereItWasUsed() {
        assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel(),
                "the test JVMs run with -Dio.netty.leakDetection.level=paranoid (test.jvm.args in the root POM)");
        leak();
        NettyLeakCheck.findLeaks();
        List<String> leaks = NettyLeakCheck.takeLeaks();
        assertEquals(1, leaks.size(), leaks.toString());
        assertTrue(leaks.get(0).contains("leaked") && leaks.get(0).contains("NettyLeakCheckTest.leak"),
                leaks.get(0));
    }

    /** Out of line, so nothing on the test's stack keeps the buffer reachable. */
    private static void leak() {
        ByteBuf b = ByteBufAllocator.DEFAULT.buffer(16);
        b.writeInt(42);
    }
}
