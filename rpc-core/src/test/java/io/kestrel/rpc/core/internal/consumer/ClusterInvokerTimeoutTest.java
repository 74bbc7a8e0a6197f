package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.fixture.WhoService;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The order of the deadline rule; the end-to-end behaviour is in {@code ServiceTimeoutTest}. */
class ClusterInvokerTimeoutTest {
    private static final ProviderInfo PUBLISHES_200 = provider(Duration.ofMillis(200));
    private static final ProviderInfo PUBLISHES_NONE = provider(null);

    @Test
    void referenceTimeoutWinsThenTheProvidersThenTheDefault() {
        ClusterInvoker own = invoker(ReferenceConfig.builder(WhoService.class).timeout(Duration.ofMillis(700)));
        assertEquals(700, own.timeoutMillis(PUBLISHES_200));
        assertEquals(700, own.timeoutMillis(PUBLISHES_NONE));

        ClusterInvoker unset = invoker(ReferenceConfig.builder(WhoService.class));
        assertEquals(200, unset.timeoutMillis(PUBLISHES_200));
        assertEquals(3000, unset.timeoutMillis(PUBLISHES_NONE));
        assertEquals(ReferenceConfig.DEFAULT_TIMEOUT.toMillis(), unset.longestTimeoutMillis());
    }

    private static ClusterInvoker invoker(ReferenceConfig.Builder<WhoService> ref) {
        return new ClusterInvoker(ref.build(), null, null, null, null); // the rule needs neither directory nor serializer
    }

    private static ProviderInfo provider(Duration timeout) {
        return new ProviderInfo("127.0.0.1", 20880, new ServiceKey(WhoService.class.getName(), "", ""),
                List.of((byte) 28), 100, List.of("who"), timeout);
    }
}
