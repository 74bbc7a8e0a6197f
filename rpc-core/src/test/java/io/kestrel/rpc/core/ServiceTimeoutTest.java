package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.core.fixture.NamedWho;
import io.kestrel.rpc.core.fixture.WhoService;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code ServiceConfig.timeout} is the deadline of consumers that set none: published in the registry record,
 * used per call for the chosen provider, over real sockets and a real ZooKeeper.
 */
@Timeout(60)
class ServiceTimeoutTest {
    private TestingServer zk;
    private final List<AutoCloseable> closeables = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        zk = new TestingServer(true);
    }

    @AfterEach
    void stopAll() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
        zk.close();
    }

    private RegistryConfig registry() {
        return RegistryConfig.builder().address("zookeeper://" + zk.getConnectString())
                .sessionTimeout(Duration.ofSeconds(4)).connectionTimeout(Duration.ofSeconds(5)).build();
    }

    /** Holds every call until released, so a call lasts exactly as long as the test wants. */
    private final NamedWho impl = new NamedWho("p");

    private RpcRuntime provider(Duration serviceTimeout) {
        RpcRuntime r = RpcRuntime.builder().protocol(TestRuntimes.loopback().build()).registry(registry()).build();
        closeables.add(r);
        Exporter exported = r.export(ServiceConfig.builder(WhoService.class, impl).timeout(serviceTimeout)
                .build());
        assertEquals(Optional.of(serviceTimeout), exported.provider().timeout(), "published in the registry record");
        return r;
    }

    private WhoService consumer(ReferenceConfig.Builder<WhoService> ref) {
        RpcRuntime r = RpcRuntime.builder().registry(registry()).build();
        closeables.add(r);
        return r.refer(ref.build());
    }

    @Test
    void consumerWithoutTimeoutUsesTheProvidersAndOneWithItsOwnKeepsIt() throws Exception {
        provider(Duration.ofMillis(200));

        WhoService noTimeout = consumer(ReferenceConfig.builder(WhoService.class).retries(0));
        impl.hold();
        RpcTimeoutException e = assertThrows(RpcTimeoutException.class, noTimeout::held);
        assertTrue(e.getMessage().contains("(limit 200 ms)"), e.getMessage());

        WhoService ownTimeout = consumer(ReferenceConfig.builder(WhoService.class).timeout(Duration.ofSeconds(10)));
        assertStillRunningAfter(ownTimeout, Duration.ofMillis(600));
    }

    /**
     * Holds a call for {@code wait} (longer than any deadline that must not apply), checks that it is
     * still waiting for its answer rather than failed, then releases it and expects the answer.
     */
    private void assertStillRunningAfter(WhoService who, Duration wait) throws Exception {
        impl.hold();
        CompletableFuture<String> call = CompletableFuture.supplyAsync(who::held);
        assertThrows(TimeoutException.class, () -> call.get(wait.toMillis(), TimeUnit.MILLISECONDS),
                "the call ended within " + wait + ": a shorter deadline applied");
        impl.release();
        assertEquals("p", call.get(10, TimeUnit.SECONDS));
    }

    @Test
    void providerTimeoutLongerThanTheDefaultIsWaitedFor() throws Exception {
        provider(Duration.ofSeconds(6));
        WhoService noTimeout = consumer(ReferenceConfig.builder(WhoService.class));
        // past the default and its one-second safety margin
        assertStillRunningAfter(noTimeout, ReferenceConfig.DEFAULT_TIMEOUT.plusMillis(1200));
    }

    @Test
    void directModeHasNoRecordSoTheProvidersTimeoutDoesNotApply() throws Exception {
        RpcRuntime provider = provider(Duration.ofMillis(200));
        WhoService direct = consumer(ReferenceConfig.builder(WhoService.class).url("127.0.0.1:" + provider.boundPort()));
        assertStillRunningAfter(direct, Duration.ofMillis(600)); // the default (3 s), not the provider's 200 ms
    }

    @Test
    void theEffectiveTimeoutIsWhatTravelsOnTheWire() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Integer> sentTimeout = CompletableFuture.supplyAsync(() -> readRequestTimeout(silent));
            Registry publisher = Registries.create(registry());
            closeables.add(publisher);
            byte fory = Serializations.installed().byName("fory").id();
            publisher.register(new ProviderInfo("127.0.0.1", silent.getLocalPort(),
                    new ServiceKey(WhoService.class.getName(), "", ""), List.of(fory), 100, List.of("who", "held"),
                    Duration.ofMillis(300)));

            WhoService who = consumer(ReferenceConfig.builder(WhoService.class).retries(0));
            RpcTimeoutException e = assertThrows(RpcTimeoutException.class, who::who);
            assertTrue(e.getMessage().contains("(limit 300 ms)"), e.getMessage());
            assertEquals(300, sentTimeout.get(10, TimeUnit.SECONDS));
        }
    }

    /**
     * A provider that answers heartbeats (the consumer's connection handshake) but no call: accepts one
     * connection, reads frames up to the first request and returns that request's timeout field.
     */
    private int readRequestTimeout(ServerSocket server) {
        try {
            Socket s = server.accept();
            closeables.add(s);
            DataInputStream in = new DataInputStream(s.getInputStream());
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            while (true) {
                byte[] header = new byte[18];
                in.readFully(header);
                ByteBuffer h = ByteBuffer.wrap(header);
                int flags = header[3];
                long requestId = h.getLong(6);
                byte[] body = new byte[h.getInt(14)];
                in.readFully(body);
                if ((flags & 0x04) != 0) { // event: answer two-way heartbeats
                    if ((flags & 0x02) != 0) {
                        out.write(ByteBuffer.allocate(18).putShort((short) 0x4B52).put((byte) 1).put((byte) 0x04)
                                .put(header[4]).put((byte) 20).putLong(requestId).putInt(0).array());
                        out.flush();
                    }
                    continue;
                }
                DataInputStream request = new DataInputStream(new ByteArrayInputStream(body));
                readVarint(request); // method ref
                if ((flags & 0x08) != 0) { // method definition: the descriptor text follows on first use
                    request.readFully(new byte[readVarint(request)]);
                }
                return readVarint(request);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static int readVarint(DataInputStream in) throws IOException {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            int b = in.readUnsignedByte();
            value |= (b & 0x7F) << shift;
            if (b < 0x80) {
                return value;
            }
        }
    }
}
