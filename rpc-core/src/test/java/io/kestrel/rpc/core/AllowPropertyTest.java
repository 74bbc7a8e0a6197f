package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.refused.Gadget;
import java.util.function.Supplier;
import org.apache.commons.collections.functors.InvokerTransformer;
import org.junit.jupiter.api.Test;

/**
 * {@code -Dkestrel.rpc.serialization.allow=<packages>} (comma-separated) widens the allowlist of every
 * runtime created while it is set, like {@code allowed-packages}; known gadgets stay refused inside an
 * allowed package. The property is read when a runtime is built, so it is set around that only.
 */
class AllowPropertyTest {
    static final String REFUSED = Gadget.class.getPackageName();

    private static <T> T withAllowProperty(String value, Supplier<T> body) {
        String previous = System.getProperty(ClassAllowlist.ALLOW_PROPERTY);
        System.setProperty(ClassAllowlist.ALLOW_PROPERTY, value);
        try {
            return body.get();
        } finally {
            if (previous == null) {
                System.clearProperty(ClassAllowlist.ALLOW_PROPERTY);
            } else {
                System.setProperty(ClassAllowlist.ALLOW_PROPERTY, previous);
            }
        }
    }

    @Test
    void packagesNamedInThePropertyAreAcceptedByTheProviderAndGadgetsStayRefused() {
        try (RpcRuntime allowing = withAllowProperty("com.example.unused, " + REFUSED + ",org.apache.commons",
                    () -> TestRuntimes.echoProvider(TestRuntimes.loopback().build()));
                RpcRuntime strict = TestRuntimes.echoProvider(TestRuntimes.loopback().build());
                RpcRuntime consumer = RpcRuntime.builder().build()) {
            for (String serialization : TestRuntimes.SERIALIZATIONS) {
                if (TestRuntimes.compatible(serialization)) {
                    continue; // these providers are plain; compatible mode does not change the allowlist
                }
                EchoService viaProperty = consumer.refer(TestRuntimes.echoReference(allowing, serialization)
                        .allowPackage(REFUSED).build());
                Object back = viaProperty.echoObject(new Gadget());
                assertEquals(Gadget.class, back.getClass(), serialization + ": allowed by the property");

                EchoService withoutProperty = consumer.refer(TestRuntimes.echoReference(strict, serialization).build());
                BadRequestException refused = assertThrows(BadRequestException.class,
                        () -> withoutProperty.echoObject(new Gadget()), serialization + ": refused without it");
                assertTrue(refused.getMessage().contains("-D" + ClassAllowlist.ALLOW_PROPERTY + "=" + REFUSED),
                        refused.getMessage());

                if (!serialization.equals("fory")) { // fory's writer refuses gadgets itself (GadgetRefusalTest)
                    BadRequestException gadget = assertThrows(BadRequestException.class,
                            () -> viaProperty.echoObject(new InvokerTransformer()), serialization);
                    assertTrue(gadget.getMessage().contains("known deserialization gadget"), gadget.getMessage());
                }
            }
        }
    }
}
