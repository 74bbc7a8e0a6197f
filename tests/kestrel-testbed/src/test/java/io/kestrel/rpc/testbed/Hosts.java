package io.kestrel.rpc.testbed;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The hosts of the test bed: one network namespace per host, each with a veth pair whose other end is on a
 * Linux bridge that lives in a namespace of its own, so nothing of the bed touches the machine's own
 * namespace. Addresses are in 10.213.7.0/24, used only inside these namespaces.
 *
 * <p>Every name starts with {@code kestb-<pid of the test JVM>-}: two runs side by side do not meet, and
 * {@link #removeLeftovers()} removes what a dead run left (its processes first, by their ids, then its
 * namespaces; deleting a namespace deletes its veth ends). {@link #close()} removes this run's, also from a
 * shutdown hook. Links are cut with blackhole routes ({@code tc netem} is not available here).
 */
final class Hosts implements AutoCloseable {
    static final String PREFIX = "kestb-";
    private static final String SUBNET = "10.213.7.";

    private final String run = PREFIX + ProcessHandle.current().pid() + "-";
    private final Map<String, String> addresses = new LinkedHashMap<>();
    /** "host>address" of each blackhole route added and not yet removed. */
    private final Set<String> blackholes = new LinkedHashSet<>();
    private final Thread hook = new Thread(this::removeAll, "testbed-cleanup");
    private boolean closed;

    /** Builds the switch and one host per entry of {@code hosts} (name -> last byte of its address). */
    Hosts(Map<String, Integer> hosts) {
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            String sw = run + "sw";
            ip("netns", "add", sw);
            ip("-n", sw, "link", "add", "br0", "type", "bridge");
            ip("-n", sw, "link", "set", "br0", "up");
            for (Map.Entry<String, Integer> h : hosts.entrySet()) {
                String ns = namespace(h.getKey());
                String address = SUBNET + h.getValue();
                ip("netns", "add", ns);
                ip("link", "add", "eth0", "netns", ns, "type", "veth", "peer", "name", "v-" + h.getKey(), "netns", sw);
                ip("-n", sw, "link", "set", "v-" + h.getKey(), "master", "br0");
                ip("-n", sw, "link", "set", "v-" + h.getKey(), "up");
                ip("-n", ns, "addr", "add", address + "/24", "dev", "eth0");
                ip("-n", ns, "link", "set", "eth0", "up");
                ip("-n", ns, "link", "set", "lo", "up");
                addresses.put(h.getKey(), address);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Checks that namespaces can be made here (root, iproute2); returns null if so, else why not. Removes
     * what dead runs left behind first.
     */
    static String unavailableReason() {
        try {
            removeLeftovers();
            String probe = PREFIX + ProcessHandle.current().pid() + "-probe";
            Result add = exec(List.of("ip", "netns", "add", probe));
            if (add.code != 0) {
                return "'ip netns add' failed (" + add.output.strip() + "); the test bed needs root and iproute2";
            }
            exec(List.of("ip", "netns", "del", probe));
            return null;
        } catch (IOException e) {
            return "cannot run 'ip' (" + e.getMessage() + "); the test bed needs iproute2 and root";
        }
    }

    String address(String host) {
        String a = addresses.get(host);
        if (a == null) {
            throw new IllegalArgumentException("no host " + host + " in the bed; hosts: " + addresses.keySet());
        }
        return a;
    }

    String namespace(String host) {
        return run + host;
    }

    /** The command line that runs {@code command} on {@code host}. */
    List<String> on(String host, List<String> command) {
        address(host);
        List<String> c = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        c.addAll(command);
        return c;
    }

    /** Drops every packet {@code host} sends to {@code targets} (a link cut as seen from {@code host}). */
    synchronized void blackhole(String host, String... targets) {
        for (String t : targets) {
            ip("-n", namespace(host), "route", "add", "blackhole", address(t) + "/32");
            blackholes.add(host + ">" + t);
        }
    }

    /** Removes the blackhole routes that {@link #blackhole} added on {@code host} to {@code targets}. */
    synchronized void heal(String host, String... targets) {
        for (String t : targets) {
            if (blackholes.remove(host + ">" + t)) {
                ip("-n", namespace(host), "route", "del", "blackhole", address(t) + "/32");
            }
        }
    }

    /** Removes every blackhole route still in place. */
    synchronized void healAll() {
        for (String b : List.copyOf(blackholes)) {
            String[] parts = b.split(">");
            heal(parts[0], parts[1]);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        removeAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is this call
        }
    }

    private void removeAll() {
        try {
            removeNamespaces(run);
        } catch (IOException e) {
            System.err.println("test bed cleanup failed: " + e);
        }
    }

    /** Removes the namespaces (and their processes) of runs whose test JVM is gone. */
    static void removeLeftovers() throws IOException {
        for (String ns : namespaces(PREFIX)) {
            String pid = ns.substring(PREFIX.length(), ns.indexOf('-', PREFIX.length()));
            boolean alive = pid.chars().allMatch(Character::isDigit)
                    && ProcessHandle.of(Long.parseLong(pid)).isPresent();
            if (!alive) {
                removeNamespaces(PREFIX + pid + "-");
            }
        }
    }

    private static void removeNamespaces(String prefix) throws IOException {
        for (String ns : namespaces(prefix)) {
            for (String pid : exec(List.of("ip", "netns", "pids", ns)).output.split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
            exec(List.of("ip", "netns", "del", ns));
        }
    }

    private static List<String> namespaces(String prefix) throws IOException {
        List<String> found = new ArrayList<>();
        for (String line : exec(List.of("ip", "netns", "list")).output.split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (name.startsWith(prefix) && name.length() > prefix.length()) {
                found.add(name);
            }
        }
        return found;
    }

    /** Runs {@code ip args...}; fails with its output when it does not succeed. */
    static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        try {
            Result r = exec(command);
            if (r.code != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed (" + r.code + "): " + r.output);
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", command) + " could not run: " + e, e);
        }
    }

    record Result(int code, String output) {
    }

    /** Runs a short command, bounded to 10 s. */
    static Result exec(List<String> command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not finish in 10 s");
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running " + command, e);
        }
    }
}
