package io.kestrel.rpc.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A real 3-node ZooKeeper ensemble, one {@code QuorumPeerMain} JVM on each of the hosts zk1..zk3, data under
 * {@code <dir>/zkN}. Short ticks (500 ms) so elections and session expiry are quick; sessions may be 1-10 s.
 * Each node's state is asked with the {@code srvr} four-letter word from inside its own host (bash's
 * /dev/tcp), so no traffic leaves the bed.
 */
final class Ensemble implements AutoCloseable {
    static final int SIZE = 3;
    static final int CLIENT_PORT = 2181;

    private final Hosts hosts;
    private final Path dir;
    private final Path logs;
    private final HostJvm[] nodes = new HostJvm[SIZE];

    Ensemble(Hosts hosts, Path dir, Path logs) throws IOException {
        this.hosts = hosts;
        this.dir = dir;
        this.logs = logs;
        for (int id = 1; id <= SIZE; id++) {
            writeConfig(id);
        }
    }

    static String host(int id) {
        return "zk" + id;
    }

    /** "a:2181,b:2181,c:2181", the connect string clients use. */
    String connectString() {
        List<String> all = new ArrayList<>();
        for (int id = 1; id <= SIZE; id++) {
            all.add(hosts.address(host(id)) + ":" + CLIENT_PORT);
        }
        return String.join(",", all);
    }

    private void writeConfig(int id) throws IOException {
        Path node = dir.resolve(host(id));
        Files.createDirectories(node.resolve("data"));
        Files.writeString(node.resolve("data").resolve("myid"), Integer.toString(id));
        StringBuilder cfg = new StringBuilder()
                .append("tickTime=500\ninitLimit=10\nsyncLimit=4\n")
                .append("minSessionTimeout=1000\nmaxSessionTimeout=10000\n")
                .append("dataDir=").append(node.resolve("data").toAbsolutePath()).append('\n')
                .append("clientPort=").append(CLIENT_PORT).append('\n')
                .append("clientPortAddress=").append(hosts.address(host(id))).append('\n')
                .append("admin.enableServer=false\nstandaloneEnabled=false\n")
                .append("4lw.commands.whitelist=srvr,ruok\n");
        for (int peer = 1; peer <= SIZE; peer++) {
            cfg.append("server.").append(peer).append('=').append(hosts.address(host(peer))).append(":2888:3888\n");
        }
        Files.writeString(node.resolve("zoo.cfg"), cfg);
    }

    /** Starts node {@code id} if it does not run. */
    synchronized void start(int id) throws IOException {
        if (nodes[id - 1] != null && nodes[id - 1].isAlive()) {
            return;
        }
        nodes[id - 1] = HostJvm.start(hosts, host(id), host(id), logs, List.of("-Xmx128m"),
                org.apache.zookeeper.server.quorum.QuorumPeerMain.class,
                dir.resolve(host(id)).resolve("zoo.cfg").toAbsolutePath().toString());
    }

    void startAll() throws IOException {
        for (int id = 1; id <= SIZE; id++) {
            start(id);
        }
    }

    /** Kills node {@code id} (SIGKILL: a crash) and waits for it to end. */
    synchronized void kill(int id) throws IOException, InterruptedException {
        HostJvm node = nodes[id - 1];
        if (node != null && node.isAlive()) {
            node.signal("KILL");
            node.awaitExit(5_000);
        }
    }

    void killAll() throws IOException, InterruptedException {
        for (int id = 1; id <= SIZE; id++) {
            kill(id);
        }
    }

    boolean isRunning(int id) {
        return nodes[id - 1] != null && nodes[id - 1].isAlive();
    }

    /** Deletes node {@code id}'s snapshots and logs (it must be stopped): it comes back empty. */
    void wipe(int id) throws IOException {
        if (isRunning(id)) {
            throw new IllegalStateException(host(id) + " runs; stop it before wiping its data");
        }
        Path data = dir.resolve(host(id)).resolve("data").resolve("version-2");
        if (Files.exists(data)) {
            try (Stream<Path> files = Files.walk(data)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    /** Node {@code id}'s mode ("leader", "follower"), or null when it does not serve. */
    String mode(int id) {
        String address = hosts.address(host(id));
        String script = "exec 3<>/dev/tcp/" + address + "/" + CLIENT_PORT + " && printf srvr >&3 && timeout 2 cat <&3";
        try {
            Hosts.Result r = Hosts.exec(hosts.on(host(id), List.of("bash", "-c", script)));
            for (String line : r.output().split("\n")) {
                if (line.startsWith("Mode: ")) {
                    return line.substring("Mode: ".length()).strip();
                }
            }
        } catch (IOException e) {
            // not serving
        }
        return null;
    }

    /** The id of the leader, or 0 when none serves. */
    int leader() {
        for (int id = 1; id <= SIZE; id++) {
            if (isRunning(id) && "leader".equals(mode(id))) {
                return id;
            }
        }
        return 0;
    }

    /**
     * Waits until every running node serves and one leads; returns how long that took, in ms.
     *
     * @throws AssertionError if that does not happen within {@code timeoutMs}
     */
    long awaitServing(long timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        long deadline = start + timeoutMs * 1_000_000L;
        String last = "";
        while (System.nanoTime() < deadline) {
            StringBuilder modes = new StringBuilder();
            boolean all = true;
            int leaders = 0;
            for (int id = 1; id <= SIZE; id++) {
                String mode = isRunning(id) ? mode(id) : "stopped";
                modes.append(host(id)).append('=').append(mode).append(' ');
                all &= mode != null;
                leaders += "leader".equals(mode) ? 1 : 0;
            }
            last = modes.toString();
            if (all && leaders == 1) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            // kept: each look probes every server, and the time to serve is what is reported
            Thread.sleep(200);
        }
        throw new AssertionError("the ensemble did not serve within " + timeoutMs + " ms: " + last);
    }

    @Override
    public void close() {
        for (HostJvm node : nodes) {
            if (node != null) {
                node.close();
            }
        }
    }
}
