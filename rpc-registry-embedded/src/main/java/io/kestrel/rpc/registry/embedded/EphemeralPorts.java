package io.kestrel.rpc.registry.embedded;

import io.kestrel.rpc.registry.zookeeper.EmbeddedRegistryFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Checks whether a port lies in the host's ephemeral range, the ports the kernel hands out as the source of
 * outgoing connections. On Linux the range is {@code net.ipv4.ip_local_port_range} (32768-60999 by default).
 *
 * <p>Why the embedded registry cares: while no process hosts the embedded ZooKeeper (its host just ended),
 * every joined process keeps connecting to its port. A connection to a port in the ephemeral range can be
 * given that very port as its source, and then connects to itself and holds the port; the process taking over
 * hosting then fails to bind with "Address already in use". A port below the range, like the default 2182,
 * cannot be handed out that way.
 */
final class EphemeralPorts {
    /** Linux's setting; other systems have none to read, and no warning is given there. */
    static final Path LINUX_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private EphemeralPorts() {
    }

    /**
     * A warning for the embedded registry's log if {@code port} lies in the range read from {@code rangeFile}
     * ("low high", as Linux writes it); empty if it does not, or if the file is missing or unreadable.
     */
    static Optional<String> warning(int port, Path rangeFile) {
        int[] range = read(rangeFile);
        if (range == null || port < range[0] || port > range[1]) {
            return Optional.empty();
        }
        return Optional.of(String.format("The embedded ZooKeeper port %d lies in this host's ephemeral port range "
                + "%d-%d (%s): while no process hosts it, a process reconnecting to it can be given that port as "
                + "its own source port, and taking over hosting then fails with 'Address already in use'. Use a "
                + "port below %d, e.g. the default %d (registry address 'embedded'), or embedded://PORT",
                port, range[0], range[1], rangeFile, range[0], EmbeddedRegistryFactory.DEFAULT_PORT));
    }

    private static int[] read(Path rangeFile) {
        try {
            // read line by line: Files.readString trusts the size a /proc file reports, and gets 1 character
            List<String> lines = Files.readAllLines(rangeFile);
            if (lines.isEmpty()) {
                return null;
            }
            String[] parts = lines.get(0).trim().split("\\s+");
            if (parts.length != 2) {
                return null;
            }
            int low = Integer.parseInt(parts[0]);
            int high = Integer.parseInt(parts[1]);
            return low <= high ? new int[] {low, high} : null;
        } catch (IOException | NumberFormatException | SecurityException e) {
            return null;
        }
    }
}
