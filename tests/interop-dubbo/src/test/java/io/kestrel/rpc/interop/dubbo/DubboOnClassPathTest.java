package io.kestrel.rpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.dubbo.common.Version;
import org.junit.jupiter.api.Test;

class DubboOnClassPathTest {
    @Test
    void stockDubboThreeThreeIsOnTheTestClassPath() {
        assertTrue(Version.getVersion().startsWith("3.3."), Version.getVersion());
    }
}
