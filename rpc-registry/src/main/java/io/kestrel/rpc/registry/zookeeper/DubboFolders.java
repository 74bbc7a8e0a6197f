package io.kestrel.rpc.registry.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the folders of Dubbo's layout as Dubbo does: PERSISTENT nodes. The native layout's folders are
 * container nodes, which ZooKeeper deletes once empty; a stock Dubbo consumer watches
 * {@code /dubbo/<interface>/providers} with a plain child watch that it sets again after each event, and would
 * lose the folder, and with it every later provider, if the folder vanished when the last provider left.
 */
final class DubboFolders {
    private static final Logger log = LoggerFactory.getLogger(DubboFolders.class);

    private DubboFolders() {
    }

    /** Creates {@code folder} and its parents as persistent nodes unless they exist; failures are logged only. */
    static void ensure(CuratorFramework client, String folder, String address) {
        try {
            client.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(folder);
        } catch (KeeperException.NodeExistsException e) {
            // the usual case
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            // the record's own creation retries and reports; it then creates container folders instead
            log.warn("Could not create the Dubbo folder {} in {}: {}", folder, address, e.toString());
        }
    }
}
