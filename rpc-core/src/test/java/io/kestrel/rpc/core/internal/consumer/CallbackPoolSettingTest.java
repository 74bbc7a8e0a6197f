package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@value CallbackPool#CALLBACKS_PROPERTY}: where asynchronous methods' futures complete. */
class CallbackPoolSettingTest {
    @Test
    void directAndPoolAreTheChoicesAndAnythingElseIsThePool() {
        assertTrue(CallbackPool.direct("direct"));
        assertTrue(CallbackPool.direct(" Direct "));
        assertFalse(CallbackPool.direct("pool"));
        assertFalse(CallbackPool.direct("fast"), "a mistake is logged and read as the safe choice");
        assertFalse(CallbackPool.DIRECT, "the default is the pool");
    }
}
