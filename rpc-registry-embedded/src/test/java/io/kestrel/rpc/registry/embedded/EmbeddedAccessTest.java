package io.kestrel.rpc.registry.embedded;

import static io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.provider;
import static io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.uniqueService;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.RegistryException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.RegistryConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.registry.Registries;
import io.kestrel.rpc.api.registry.Registry;
import io.kestrel.rpc.registry.embedded.EmbeddedTestSupport.RecordingListener;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** Only members (who know this user's secret) can use the embedded ZooKeeper, and they join only a proven one. */
@Timeout(90)
class EmbeddedAccessTest {

    @Test
    void aClientWithoutTheSecretCanNeitherReadNorWriteAndMembersAreUndisturbed() throws Exception {
        int port = EmbeddedTestSupport.unusedPort();
        RegistryConfig config = RegistryConfig.builder().address("embedded://" + port).build();
        ServiceKey service = uniqueService("", "");
        ProviderInfo real = provider(service, 20001);
        try (Registry provider = Registries.create(config);
                Registry consumer = Registries.create(config);
                EmbeddedLease memberLease = EmbeddedZooKeeper.acquire(port);
                CuratorFramework member = memberClient(memberLease);
                CuratorFramework stranger = client(port, null);
                CuratorFramework guesser = client(port, "kestrel:guessed")) {
            provider.register(real);
            String root = config.root();
            for (CuratorFramework c : List.of(stranger, guesser)) {
                assertNoAuth(() -> c.getChildren().forPath("/"));
                assertNoAuth(() -> c.getChildren().forPath(root));
                assertNoAuth(() -> c.getData().forPath(EmbeddedCredentials.PROOF_PATH));
                assertNoAuth(() -> c.create().forPath("/squatter"));
                assertNoAuth(() -> c.create().creatingParentsIfNeeded().forPath(root + "/" + service.interfaceName()
                        + "/providers/" + "kestrel%3A%2F%2F127.0.0.1%3A1"));
                assertNoAuth(() -> c.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/"));
                assertNoAuth(() -> c.delete().deletingChildrenIfNeeded().forPath(root));
            }

            String providers = root + "/" + service.interfaceName() + "/providers";
            List<String> nodes = member.getChildren().forPath(providers);
            assertEquals(1, nodes.size(), nodes.toString());
            String node = providers + "/" + nodes.get(0);
            for (String path : List.of("/", root, node, EmbeddedCredentials.PROOF_PATH)) {
                List<ACL> acl = member.getACL().forPath(path);
                assertEquals(1, acl.size(), path + ": " + acl);
                assertEquals("digest", acl.get(0).getId().getScheme(), path + ": " + acl);
                assertTrue(acl.get(0).getId().getId().startsWith(EmbeddedCredentials.USER + ":"), path + ": " + acl);
                assertEquals(ZooDefs.Perms.ALL, acl.get(0).getPerms(), path + ": " + acl);
            }

            RecordingListener listener = new RecordingListener();
            consumer.subscribe(service, listener);
            listener.await("the member's provider, and only it", l -> l.equals(List.of(real)));
        }
    }

    @Test
    void thePrivateServerIsClosedToNonMembersToo() throws Exception {
        try (Registry registry = Registries.create(RegistryConfig.embedded());
                CuratorFramework stranger = client(EmbeddedZooKeeper.current().orElseThrow().port(), null)) {
            registry.register(provider(uniqueService("", ""), 20002));
            assertNoAuth(() -> stranger.getChildren().forPath("/"));
            assertNoAuth(() -> stranger.create().forPath("/squatter"));
        }
    }

    /**
     * A ZooKeeper on the port while the host lock is held (as if it had taken the port from a starting Kestrel
     * host): the joining process sends it only the password of one host id and refuses it, for want of proof.
     */
    @Test
    void aServerThatCannotProveItsSecretIsRefusedWhileTheLockIsHeld() throws Exception {
        int port = EmbeddedTestSupport.unusedPort();
        EmbeddedDirectory dir = EmbeddedDirectory.open();
        try (HostLock lock = HostLock.tryAcquire(dir.lockFile(port));
                TestingServer squatter = new TestingServer(port, true);
                CuratorFramework look = client(port, null)) {
            String id = dir.writeNewHostId(port);
            look.create().forPath(EmbeddedCredentials.PROOF_PATH, "forged".getBytes(StandardCharsets.US_ASCII));
            RegistryException e = assertThrows(RegistryException.class, () -> EmbeddedZooKeeper.acquire(port));
            assertTrue(e.getMessage().startsWith("Another process, not started by Kestrel for user "
                    + System.getProperty("user.name") + ", listens on 127.0.0.1:" + port + ": it did not prove that "
                    + "it was started with this user's secret " + dir.secretFile()), e.getMessage());
            assertTrue(EmbeddedZooKeeper.current().isEmpty());
            assertTrue(id.length() == 32, id);
        }
    }

    /** Before every connection attempt, reconnects included, the client checks the server's proof. */
    @Test
    void aClientConnectsOnlyToTheServerItsCredentialsBelongTo() throws Exception {
        int squatterPort = EmbeddedTestSupport.unusedPort();
        try (EmbeddedLease lease = EmbeddedZooKeeper.acquire(EmbeddedTestSupport.unusedPort());
                TestingServer squatter = new TestingServer(squatterPort, true)) {
            EmbeddedCredentials own = lease.credentials();
            assertEquals(new InetSocketAddress("127.0.0.1", lease.server().port()),
                    new EmbeddedHostProvider(lease.address(), own).next(0));
            assertEquals(0, new EmbeddedHostProvider(lease.address(), EmbeddedCredentials.random()).next(0).getPort(),
                    "credentials of another server (say, of the host before a take-over)");
            assertEquals(0, new EmbeddedHostProvider("127.0.0.1:" + squatterPort, own).next(0).getPort(),
                    "a squatting ZooKeeper");
        }
        assertEquals(0, new EmbeddedHostProvider("127.0.0.1:" + squatterPort, EmbeddedCredentials.random())
                .next(0).getPort(), "nothing listening");
    }

    private static void assertNoAuth(Executable call) {
        assertThrows(KeeperException.NoAuthException.class, call);
    }

    /** A client configured as a registry's is: a member of the server {@code lease} holds. */
    private static CuratorFramework memberClient(EmbeddedLease lease) throws InterruptedException {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString(lease.address())
                .retryPolicy(new RetryOneTime(100));
        lease.configure(b);
        CuratorFramework c = b.build();
        c.start();
        assertTrue(c.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS), "member connected");
        return c;
    }

    private static CuratorFramework client(int port, String digest) {
        CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder().connectString("127.0.0.1:" + port)
                .retryPolicy(new RetryOneTime(100));
        if (digest != null) {
            b.authorization("digest", digest.getBytes(StandardCharsets.US_ASCII));
        }
        CuratorFramework c = b.build();
        c.start();
        return c;
    }
}
