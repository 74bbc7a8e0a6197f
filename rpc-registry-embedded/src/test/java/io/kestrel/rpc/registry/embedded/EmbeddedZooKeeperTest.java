package io.kestrel.rpc.registry.embedded;

import static io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.provider;
import static io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.registry.zookeeper.ZooKeeperRegistry;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.RecordingListener;
import java.io.File;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.util.Collections;
import java.net.ServerSocket;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class EmbeddedZooKeeperTest {

    @Test
    void registriesConfiguredAsEmbeddedShareOneServerAndSeeEachOther() throws Exception {
        ServiceKey service = uniqueService("", "");
        ProviderInfo p1 = provider(service, 20001);
        Registry first = Registries.create(RegistryConfig.embedded());
        File dataDir;
        try (Registry second = Registries.create(RegistryConfig.builder().address("embedded").build())) {
            assertInstanceOf(ZooKeeperRegistry.class, first);
            assertNotSame(first, second);
            String address = ((ZooKeeperRegistry) first).connectString();
            assertEquals(address, ((ZooKeeperRegistry) second).connectString(), "one JVM-wide server");
            assertTrue(address.startsWith("127.0.0.1:"), address);
            EmbeddedZooKeeper zk = EmbeddedZooKeeper.current().orElseThrow();
            assertEquals(address, zk.address());
            assertEquals("false", System.getProperty("zookeeper.admin.enableServer"), "no admin server on 8080");
            assertNotReachableOnOtherAddresses(zk.port());
            dataDir = zk.dataDirectory();

            first.register(p1);
            RecordingListener listener = new RecordingListener();
            second.subscribe(service, listener);
            listener.await("p1 across registries", l -> l.equals(List.of(p1)));

            first.close();
            listener.await("p1 gone after the provider's registry closed", List::isEmpty);
            assertTrue(EmbeddedZooKeeper.current().isPresent(), "still in use by the second registry");
        }
        assertTrue(EmbeddedZooKeeper.current().isEmpty(), "stopped when the last registry closed");
        assertFalse(dataDir.exists(), "data directory deleted: " + dataDir);
    }

    /** Bound to 127.0.0.1 only: connecting through any non-loopback address of this host is refused. */
    private static void assertNotReachableOnOtherAddresses(int port) throws Exception {
        for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                if (a.isLoopbackAddress() || !(a instanceof Inet4Address)) {
                    continue;
                }
                try (Socket s = new Socket()) {
                    assertThrows(IOException.class, () -> s.connect(new InetSocketAddress(a, port), 1000),
                            "embedded ZooKeeper reachable on " + a);
                }
            }
        }
    }

    @Test
    void embeddedWithPortStartsThereAndRefusesAPortTakenBySomethingElse() throws Exception {
        int port = EmbeddedTestSupport.unusedPort();
        try (Registry registry = Registries.create(RegistryConfig.builder().address("embedded://" + port).build())) {
            assertEquals("127.0.0.1:" + port, ((ZooKeeperRegistry) registry).connectString());
            assertTrue(EmbeddedZooKeeper.current().orElseThrow().isHostedHere());
        }
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            RegistryException e = assertThrows(RegistryException.class, () -> Registries.create(
                    RegistryConfig.builder().address("embedded://" + taken.getLocalPort()).build()));
            assertTrue(e.getMessage().startsWith("Port " + taken.getLocalPort() + " on 127.0.0.1 is taken by "
                    + "something that is not ZooKeeper (it accepted a connection but did not answer"), e.getMessage());
            assertTrue(e.getMessage().contains("embedded://PORT"), e.getMessage());
            assertTrue(e.getMessage().contains("-Dkestrel.rpc.registry.embedded.port=PORT"), e.getMessage());
        }
        assertTrue(EmbeddedZooKeeper.current().isEmpty());
    }

    @Test
    void aPortAnsweringSomethingElseIsNamedInTheError() throws Exception {
        try (ServerSocket http = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread server = new Thread(() -> {
                while (!http.isClosed()) {
                    try (Socket s = http.accept()) {
                        s.getInputStream().read(new byte[4]);
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes());
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            server.setDaemon(true);
            server.start();
            RegistryException e = assertThrows(RegistryException.class, () -> EmbeddedZooKeeper.acquire(
                    http.getLocalPort()));
            assertTrue(e.getMessage().contains("is taken by something that is not ZooKeeper (it answered "
                    + "ZooKeeper's 'srvr' with 'HTTP/1.1 400 Bad Request')"), e.getMessage());
        }
    }

    @Test
    void leasesAreCountedAndClosingTwiceReleasesOnce() {
        EmbeddedLease a = EmbeddedZooKeeper.acquire(0);
        EmbeddedLease b = EmbeddedZooKeeper.acquire(0);
        assertEquals(a.address(), b.address());
        a.close();
        a.close();
        assertTrue(EmbeddedZooKeeper.current().isPresent());
        b.close();
        assertTrue(EmbeddedZooKeeper.current().isEmpty());
    }
}
