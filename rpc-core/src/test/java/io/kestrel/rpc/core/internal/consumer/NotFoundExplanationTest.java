package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A provider does not tell callers what it exports; the consumer adds what it knows from the
 * provider's registry record, and adds nothing when it knows nothing (direct mode).
 */
class NotFoundExplanationTest {
    private static final ServiceKey KEY = new ServiceKey("com.example.Users", "1.0", "");

    @Test
    void theRegistryRecordsMethodsAreAddedOnTheConsumerSide() {
        ProviderInfo record = new ProviderInfo("10.0.0.7", 20880, KEY, List.of((byte) 28), 100, List.of("find", "list"));
        ServiceNotFoundException fromProvider = new ServiceNotFoundException(
                "method com.example.Users:1.0#remove(long) is not exported by service com.example.Users:1.0.");
        Throwable explained = ClusterInvoker.explained(fromProvider, record, "remove");
        assertInstanceOf(ServiceNotFoundException.class, explained);
        assertEquals(fromProvider.getMessage() + " (this consumer's registry record of 10.0.0.7:20880 lists the methods"
                + " [find, list])", explained.getMessage());
    }

    @Test
    void withoutARecordOrForOtherFailuresNothingIsAdded() {
        ProviderInfo direct = new ProviderInfo("127.0.0.1", 20880, KEY, List.of((byte) 28), 100, List.of());
        ServiceNotFoundException notFound = new ServiceNotFoundException("service x is not exported");
        assertSame(notFound, ClusterInvoker.explained(notFound, direct, "remove"));
        IllegalStateException other = new IllegalStateException("thrown by the service");
        assertSame(other, ClusterInvoker.explained(other,
                new ProviderInfo("h", 1, KEY, List.of((byte) 28), 100, List.of("find")), "find"));
    }

    @Test
    void aNearMissOfTheMethodCalledIsSuggestedFromTheRecordWhateverTheProviderSaid() {
        // the method name is the call's own, not read back from the provider's message
        ServiceNotFoundException fromProvider = new ServiceNotFoundException("not exported");
        ProviderInfo record = new ProviderInfo("10.0.0.7", 20880, KEY, List.of((byte) 28), 100,
                List.of("foreign", "nameLength", "pay", "withdraw"));
        assertEquals("not exported (this consumer's registry record of 10.0.0.7:20880 lists the methods [foreign,"
                + " nameLength, pay, withdraw]; did you mean 'withdraw'?)",
                ClusterInvoker.explained(fromProvider, record, "withdrew").getMessage());
    }
}
