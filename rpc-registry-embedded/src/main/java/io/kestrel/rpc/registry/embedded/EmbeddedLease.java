package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryProvider;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;

/** One registry's hold on an {@link EmbeddedZooKeeper}; closing it (once; later calls do nothing) may stop the server. */
final class EmbeddedLease implements EmbeddedRegistryProvider.Member {
    private final EmbeddedZooKeeper server;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Starts the holder's client over when the server is replaced, knowing its handle's credentials. */
    private final NewSession session;
    private volatile Runnable resetter;

    EmbeddedLease(EmbeddedZooKeeper server) {
        this.server = server;
        this.session = new NewSession(this);
    }

    EmbeddedZooKeeper server() {
        return server;
    }

    @Override
    public String address() {
        return server.address();
    }

    /** The client's handles authenticate with the server's credentials of the moment; its nodes are closed to others. */
    @Override
    public void configure(CuratorFrameworkFactory.Builder builder) {
        builder.zookeeperFactory(EmbeddedAccess.zookeeperFactory(session::credentials)).aclProvider(EmbeddedAccess.ACLS);
    }

    /** As {@link EmbeddedZooKeeper#verify}. */
    @Override
    public void verify(CuratorFramework client) {
        server.verify(client);
    }

    @Override
    public void renewSessionsOf(CuratorFramework client, String registryAddress, BooleanSupplier registryClosed) {
        Runnable r = () -> session.start(client, registryAddress, registryClosed);
        resetter = r;
        server.sessionResetters.add(r);
    }

    /** The credentials a client of this server authenticates with now. */
    EmbeddedCredentials credentials() {
        return server.credentials();
    }

    @Override
    public void connectionLost() {
        if (!closed.get()) {
            server.connectionLost();
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Runnable r = resetter;
            if (r != null) {
                server.sessionResetters.remove(r);
            }
            server.release();
        }
    }

    @Override
    public String toString() {
        return "lease on " + server;
    }
}
