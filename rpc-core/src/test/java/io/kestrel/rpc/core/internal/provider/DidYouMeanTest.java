package io.kestrel.rpc.core.internal.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceNotFoundException;
import io.kestrel.rpc.api.config.ClusterMode;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.cluster.loadbalance.LoadBalances;
import io.kestrel.rpc.core.fixture.payments.PaymentService;
import io.kestrel.rpc.core.fixture.payments.PaymentServiceImpl;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
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
    void aProviderThatDisclosesNothingSuggestsNothing() {
        // the consumer's side of this (its registry record's suggestion) is NotFoundExplanationTest's
        ServiceNotFoundException e = assertThrows(ServiceNotFoundException.class,
                () -> dispatcher(false).resolve(PAYMENTS + ":1.0#withdrew(java.lang.String,long)"));
        assertTrue(!e.getMessage().contains("did you mean"), e.getMessage());
        assertTrue(e.getMessage().contains("#withdrew(java.lang.String,long) is not exported by service"), e.getMessage());
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
