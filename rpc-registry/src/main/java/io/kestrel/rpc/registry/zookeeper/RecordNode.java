package io.kestrel.rpc.registry.zookeeper;

import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.nodes.PersistentNode;
import org.apache.zookeeper.CreateMode;

/**
 * One EPHEMERAL record of this process (a provider's or a consumer's), kept by Curator's {@link PersistentNode}
 * across session expiry. Its creation after a lost session is reported to {@code onRestored}. When the registry
 * closes while ZooKeeper is unreachable ({@link #closing}) it skips the delete, which would wait through every
 * retry; closing the client ends the session and the server removes the node then. It is always closed, though:
 * a node left open keeps re-queuing its create while the client closes. A plain unregister always deletes
 * (Curator's guaranteed delete).
 */
final class RecordNode extends PersistentNode {
    private final CuratorFramework client;
    private final String what;
    volatile boolean closing;
    /** The session ended since the node was last created; the next creation is reported as the restore. */
    volatile boolean lost;

    /**
     * @param what the record, for logs
     * @param onRestored told {@code what} when the node is created again after {@link #lost} was set; null: nobody
     */
    RecordNode(CuratorFramework client, String path, byte[] data, String what, Consumer<String> onRestored) {
        super(client, CreateMode.EPHEMERAL, false, path, data);
        this.client = client;
        this.what = what;
        getListenable().addListener(created -> {
            if (lost) {
                lost = false;
                if (onRestored != null) {
                    onRestored.accept(what);
                }
            }
        });
    }

    String what() {
        return what;
    }

    @Override
    protected void deleteNode() throws Exception {
        if (closing && !client.getZookeeperClient().isConnected()) {
            return;
        }
        super.deleteNode();
    }
}
