package io.kestrel.rpc.core.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import io.kestrel.rpc.core.fixture.payments.PaymentService;
import io.kestrel.rpc.core.fixture.payments.PaymentServiceImpl;
import io.kestrel.rpc.core.internal.consumer.ClusterInvoker;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unknown names get the known ones and, for a near miss, "did you mean". */
class DidYouMeanTest {
    private static final String PAYMENTS = PaymentService.class.getName();

    private static ProviderDispatcher dispatcher(boolean disclose) {
        ProviderDispatcher d = new ProviderDispatcher(new SerializerCache(ClassAllowlist.withDefaults(),
                DidYouMeanTest.class.getClassLoader()), null, false, "fory", disclose);
        d.add(ServiceConfig.builder(PaymentService.class, new PaymentServiceImpl()).version("1.0").build());
        return d;
    }

    @Test
    void misspeltMethodOnAProviderThatDisclosesItsServices() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> dispatcher(true).resolve(PAYMENTS + ":1.0#withdrew(java.lang.String,long)"));
        assertTrue(e.getMessage().contains("; did you mean 'withdraw'?"), e.getMessage());
    }

    @Test
    void misspeltServiceOnAProviderThatDisclosesItsServices() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> dispatcher(true).resolve(PAYMENTS + ":1.O#pay(java.lang.String,long)"));
        assertTrue(e.getMessage().contains("; did you mean '" + PAYMENTS + ":1.0'?"), e.getMessage());
    }

    @Test
    void aProviderThatDisclosesNothingSuggestsNothingButTheConsumerUsesTheRegistryRecord() {
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> dispatcher(false).resolve(PAYMENTS + ":1.0#withdrew(java.lang.String,long)"));
        assertTrue(!e.getMessage().contains("did you mean"), e.getMessage());
        ProviderInfo record = new ProviderInfo("10.0.0.7", 20880, new ServiceKey(PAYMENTS, "1.0", ""), List.of((byte) 28),
                100, List.of("foreign", "nameLength", "pay", "withdraw"));
        assertEquals(e.getMessage() + " (this consumer's registry record of 10.0.0.7:20880 lists the methods [foreign,"
                + " nameLength, pay, withdraw]; did you mean 'withdraw'?)", ClusterInvoker.explained(e, record).getMessage());
    }

    @Test
    void misspeltSerializationLoadBalancerAndClusterMode() {
        IllegalArgumentException s = assertThrows(IllegalArgumentException.class,
                () -> Serializations.installed().byName("hessain2"));
        assertTrue(s.getMessage().contains("did you mean 'hessian2'?"), s.getMessage());
        IllegalArgumentException lb = assertThrows(IllegalArgumentException.class, () -> LoadBalances.byName("round-robin"));
        assertTrue(lb.getMessage().contains("did you mean 'roundrobin'?"), lb.getMessage());
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class, () -> ClusterMode.byName("failfats"));
        assertEquals("unknown cluster mode 'failfats'; use one of failover, failfast, failsafe; did you mean 'failfast'?",
                c.getMessage());
    }
}
