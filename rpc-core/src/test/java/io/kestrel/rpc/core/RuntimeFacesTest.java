package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.interceptor.ClientInterceptor;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The runtime's three faces on loopback in direct mode: the inspector's snapshot follows the server's life, the
 * Exporter handle is found by its key and refuses offline without a registry or once unexported, and an add-on
 * brings its interceptors, starts with the build, fails the build it cannot start in and closes with the runtime.
 */
@Timeout(60)
class RuntimeFacesTest {

    @Test
    void theSnapshotFollowsTheServerFromNothingExportedToClosed() {
        RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build();
        RuntimeSnapshot before = provider.inspect().snapshot();
        assertFalse(before.server().accepting());
        assertEquals(-1, before.server().port());
        assertEquals(RegistryState.NONE, before.registry());
        assertFalse(before.registryConnected());
        provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
        RuntimeSnapshot serving = provider.inspect().snapshot();
        assertTrue(serving.server().accepting());
        assertEquals(provider.boundPort(), serving.server().port());
        assertEquals(1, provider.inspect().services().size());
        assertSame(provider.inspect(), provider.inspect(), "one inspector per runtime (gauges hold it)");
        provider.close();
        assertFalse(provider.inspect().snapshot().server().accepting());
        assertThrows(IllegalStateException.class, () -> provider.inspect().metadata(ServiceKey.of(EchoService.class)));
    }

    @Test
    void theExporterIsFoundByItsKeyAndRefusesOfflineWithoutARegistryOrOnceUnexported() {
        try (RpcRuntime provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).build()) {
            ServiceKey key = ServiceKey.of(EchoService.class);
            Exporter exporter = provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build());
            assertSame(exporter, provider.exporter(key).orElseThrow());
            assertTrue(exporter.isOnline());
            IllegalStateException direct = assertThrows(IllegalStateException.class, exporter::offline);
            assertTrue(direct.getMessage().contains("no registry"), direct.getMessage());
            exporter.unexport();
            assertTrue(provider.exporter(key).isEmpty());
            assertFalse(exporter.isOnline());
            IllegalStateException gone = assertThrows(IllegalStateException.class, exporter::online);
            assertTrue(gone.getMessage().contains("was unexported"), gone.getMessage());
        }
    }

    @Test
    void anAddOnBringsItsInterceptorsStartsWithTheBuildAndClosesFirst() {
        try (RpcRuntime provider = TestRuntimes.echoProvider(TestRuntimes.loopback().build())) {
            Recording addOn = new Recording(null);
            RpcRuntime consumer = RpcRuntime.builder().addOn(addOn).build();
            assertEquals(List.of("start"), addOn.events);
            assertSame(consumer, addOn.started);
            assertSame(addOn, consumer.addOn(Recording.class).orElseThrow());
            EchoService echo = consumer.refer(TestRuntimes.echoReference(provider, "fory").build());
            assertEquals("hi", echo.echo("hi"));
            assertEquals(1, addOn.calls.get(), "the add-on's interceptor saw the call");
            consumer.close();
            assertEquals(List.of("start", "close"), addOn.events);
        }
    }

    @Test
    void anAddOnThatCannotStartFailsTheBuildAndEveryAddOnIsClosed() {
        Recording first = new Recording(null);
        Recording failing = new Recording(new IllegalStateException("port taken"));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RpcRuntime.builder().addOn(first).addOn(failing).build());
        assertEquals("port taken", e.getMessage());
        assertEquals(List.of("start", "close"), first.events);
        assertEquals(List.of("start", "close"), failing.events);
        assertTrue(first.started.inspect().snapshot().server().port() < 0);
        assertThrows(IllegalStateException.class, () -> first.started.export(
                ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).build()), "the runtime is closed");
    }

    /** An add-on that records its life and counts the calls its interceptor sees. */
    static final class Recording implements RuntimeAddOn {
        final List<String> events = new ArrayList<>();
        final AtomicInteger calls = new AtomicInteger();
        final RuntimeException startFailure;
        RpcRuntime started;

        Recording(RuntimeException startFailure) {
            this.startFailure = startFailure;
        }

        @Override
        public List<ClientInterceptor> clientInterceptors() {
            return List.of(chain -> {
                calls.incrementAndGet();
                return chain.proceed();
            });
        }

        @Override
        public void start(RpcRuntime runtime) {
            events.add("start");
            started = runtime;
            if (startFailure != null) {
                throw startFailure;
            }
        }

        @Override
        public void close() {
            events.add("close");
        }
    }
}
