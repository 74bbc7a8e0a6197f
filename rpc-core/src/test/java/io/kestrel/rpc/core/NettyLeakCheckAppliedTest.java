package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.NettyLeakCheck;
import org.junit.jupiter.api.Test;

/**
 * The test kit's {@link NettyLeakCheck} runs around every test class of this module without being named: the kit
 * registers it for ServiceLoader and the root POM turns on JUnit's extension auto-detection. Were either
 * missing, a leaked buffer would pass unnoticed; this class names no extension and fails then.
 */
class NettyLeakCheckAppliedTest {
    @Test
    void theLeakCheckRunsAroundAClassThatDoesNotAskForIt() {
        assertTrue(NettyLeakCheck.applied(), "NettyLeakCheck was not applied: is"
                + " junit.jupiter.extensions.autodetection.enabled=true in the surefire configuration?");
    }
}
