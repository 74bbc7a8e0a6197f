package io.kestrel.rpc.registry.embedded;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.utils.ZookeeperFactory;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.data.ACL;

/**
 * Who may use an embedded ZooKeeper: its members authenticate with ZooKeeper's digest scheme
 * ({@link EmbeddedCredentials}), every node they create, and the root, carry the ACL "all rights to the
 * creator's identity" ({@link ZooDefs.Ids#CREATOR_ALL_ACL}), so a client without the credentials can neither
 * read nor write anything; and before a process joins a server it checks the server's proof.
 */
final class EmbeddedAccess {
    /** Every node a member creates: all rights to the members' digest identity, none to anyone else. */
    static final ACLProvider ACLS = new ACLProvider() {
        @Override
        public List<ACL> getDefaultAcl() {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return ZooDefs.Ids.CREATOR_ALL_ACL;
        }
    };
    private static final int SESSION_TIMEOUT_MS = 10_000;

    private EmbeddedAccess() {
    }

    /**
     * Curator's factory of ZooKeeper handles for a registry's client: each new handle (the first, and each one
     * after a new session was started because the host changed) authenticates with the credentials of the
     * server there now, and connects, each time, only once that server proved it has them
     * ({@link EmbeddedHostProvider}).
     */
    static ZookeeperFactory zookeeperFactory(Supplier<EmbeddedCredentials> credentials) {
        return new ZookeeperFactory() {
            @Override
            public ZooKeeper newZooKeeper(String connect, int sessionTimeout, Watcher watcher, boolean readOnly)
                    throws Exception {
                return newZooKeeper(connect, sessionTimeout, watcher, readOnly, null);
            }

            @Override
            public ZooKeeper newZooKeeper(String connect, int sessionTimeout, Watcher watcher, boolean readOnly,
                    ZKClientConfig config) throws Exception {
                EmbeddedCredentials c = credentials.get();
                EmbeddedHostProvider hosts = new EmbeddedHostProvider(connect, c);
                return authenticated(config == null ? new ZooKeeper(connect, sessionTimeout, watcher, readOnly, hosts)
                        : new ZooKeeper(connect, sessionTimeout, watcher, readOnly, hosts, config), c);
            }
        };
    }

    /**
     * Run by the host right after its server started: closes the root to non-members and stores the proof.
     *
     * @throws IllegalStateException if a client created a node before the root was closed
     */
    static void lockDown(String connect, EmbeddedCredentials credentials, long timeoutMs)
            throws IOException, InterruptedException, KeeperException {
        try (ZooKeeper zk = open(connect, credentials, timeoutMs)) {
            zk.setACL("/", ZooDefs.Ids.CREATOR_ALL_ACL, -1);
            List<String> strangers = zk.getChildren("/", false).stream().filter(c -> !c.equals("zookeeper")).toList();
            if (!strangers.isEmpty()) {
                throw new IllegalStateException("a client created " + strangers.size() + " node(s) in the new "
                        + "server before this process closed it to non-members; not hosting it");
            }
            zk.create(EmbeddedCredentials.PROOF_PATH, credentials.proofData(), ZooDefs.Ids.CREATOR_ALL_ACL,
                    CreateMode.PERSISTENT);
        }
    }

    /**
     * Whether the server at {@code connect} holds the proof of {@code credentials}: false if it answers but
     * has no such node, refuses it to these credentials, or holds something else there.
     *
     * @throws IOException if it does not answer within {@code timeoutMs}
     */
    static boolean proves(String connect, EmbeddedCredentials credentials, long timeoutMs)
            throws IOException, InterruptedException {
        try (ZooKeeper zk = open(connect, credentials, timeoutMs)) {
            return credentials.isProof(zk.getData(EmbeddedCredentials.PROOF_PATH, false, null));
        } catch (KeeperException.NoNodeException | KeeperException.NoAuthException e) {
            return false;
        } catch (KeeperException e) {
            throw new IOException("ZooKeeper at " + connect + " failed to answer: " + e, e);
        }
    }

    /** As {@link #proves(String, EmbeddedCredentials, long)}, through a registry's own client. */
    static boolean proves(CuratorFramework client, EmbeddedCredentials credentials) throws Exception {
        try {
            return credentials.isProof(client.getData().forPath(EmbeddedCredentials.PROOF_PATH));
        } catch (KeeperException.NoNodeException | KeeperException.NoAuthException e) {
            return false;
        }
    }

    private static ZooKeeper open(String connect, EmbeddedCredentials credentials, long timeoutMs)
            throws IOException, InterruptedException {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper zk = new ZooKeeper(connect, SESSION_TIMEOUT_MS, e -> {
            if (e.getState() == Watcher.Event.KeeperState.SyncConnected) {
                connected.countDown();
            }
        });
        authenticated(zk, credentials);
        if (!connected.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            zk.close();
            throw new IOException("ZooKeeper at " + connect + " did not answer within " + timeoutMs + " ms");
        }
        return zk;
    }

    private static ZooKeeper authenticated(ZooKeeper zk, EmbeddedCredentials credentials) {
        zk.addAuthInfo("digest", credentials.digestAuth());
        return zk;
    }
}
