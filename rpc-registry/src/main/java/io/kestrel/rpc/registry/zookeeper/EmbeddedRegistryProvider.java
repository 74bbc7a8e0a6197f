package io.kestrel.rpc.registry.zookeeper;

import java.util.function.BooleanSupplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * The embedded ZooKeeper that {@code embedded} registries use: hosted by one process of this user on this host,
 * joined by the others. It lives in a separate artifact, {@value #ARTIFACT} (the server, its host lock, the
 * user's secret and who may join), so that this one holds only the ZooKeeper client; {@link
 * EmbeddedRegistryFactory} finds it with {@link java.util.ServiceLoader}. Not meant to be implemented by users.
 */
public interface EmbeddedRegistryProvider {
    /** The artifact that provides it, for messages. */
    String ARTIFACT = "io.kestrel:rpc-registry-embedded";

    /**
     * Hosts or joins the embedded ZooKeeper at {@code port}, or with 0 a private one in this process.
     *
     * @throws io.kestrel.rpc.api.RegistryException if it can neither be hosted nor joined; the message says why
     *     and what to do
     */
    Member join(int port);

    /**
     * One registry's hold on the embedded ZooKeeper; closing it (once; later calls do nothing) may stop the
     * server. Its client is a member: it authenticates with the server's credentials, creates every node closed
     * to non-members and connects only to a server that proves itself.
     */
    interface Member extends AutoCloseable {
        /** The server's "127.0.0.1:port", a ZooKeeper connect string. */
        String address();

        /** Makes the client built by {@code builder} a member (its handles and the ACLs of its nodes). */
        void configure(CuratorFrameworkFactory.Builder builder);

        /**
         * Checks, through the connected client, that the server it reached is the one this process hosts or
         * joined, before anything is registered or read.
         *
         * @throws io.kestrel.rpc.api.RegistryException naming the port and the fix if it is not
         */
        void verify(CuratorFramework client);

        /**
         * From now on starts {@code client} over in a new session when the server is replaced (its host ended and
         * another process took over), unless {@code closed} says the registry closed meanwhile.
         *
         * @param registryAddress the registry's configured address, for the log
         */
        void renewSessionsOf(CuratorFramework client, String registryAddress, BooleanSupplier closed);

        /** The client lost its connection: the host may be gone. */
        void connectionLost();

        @Override
        void close();
    }
}
