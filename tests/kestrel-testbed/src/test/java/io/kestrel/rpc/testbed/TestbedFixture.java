package io.kestrel.rpc.testbed;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The bed the scenarios run on, built once for the suite: hosts zk1..zk3 (a 3-node ensemble), p1, p2
 * (providers), p3 (a provider some scenarios start) and c1 (the consumer), each a network namespace. Before
 * each scenario the bed is brought back to its baseline: no cut links, all three ZooKeeper nodes serving,
 * p1 and p2 running and the only providers the consumer's registry shows.
 *
 * <p>Needs root and iproute2. Where namespaces cannot be made the suite fails saying so, unless
 * {@code -Dkestrel.testbed.skip=<reason>} is given: then it is skipped with that reason.
 */
abstract class TestbedFixture {
    static final String SKIP_PROPERTY = "kestrel.testbed.skip";
    static final int PORT = 20880;
    /** Every client's ZooKeeper session timeout: past it in a few seconds. */
    static final int SESSION_MS = 4000;
    static final int RATE = 100;

    static Path dir;
    static Hosts hosts;
    static Ensemble ensemble;
    static final Map<String, HostJvm> providers = new LinkedHashMap<>();
    static HostJvm consumer;
    static final List<String> results = new ArrayList<>();
    private static int warmRuns;

    @BeforeAll
    static void buildBed() throws Exception {
        String skip = System.getProperty(SKIP_PROPERTY, "");
        if (!skip.isBlank()) {
            String why = "multi-host test bed SKIPPED (-D" + SKIP_PROPERTY + "): " + skip;
            System.err.println("[kestrel-testbed] " + why);
            Assumptions.abort(why);
        }
        String unavailable = Hosts.unavailableReason();
        if (unavailable != null) {
            fail("the multi-host test bed cannot build its hosts: " + unavailable + ". Run the build as root on"
                    + " Linux, or skip the bed explicitly with -D" + SKIP_PROPERTY + "=<reason>.");
        }
        dir = Path.of("target", "testbed").toAbsolutePath();
        deleteTree(dir);
        Files.createDirectories(dir);
        Map<String, Integer> layout = new LinkedHashMap<>();
        layout.put("zk1", 11);
        layout.put("zk2", 12);
        layout.put("zk3", 13);
        layout.put("p1", 21);
        layout.put("p2", 22);
        layout.put("p3", 23);
        layout.put("c1", 31);
        hosts = new Hosts(layout);
        ensemble = new Ensemble(hosts, dir, dir.resolve("logs"));
        ensemble.startAll();
        ensemble.awaitServing(60_000);
        startProvider("p1", hosts.address("p1"));
        startProvider("p2", hosts.address("p2"));
        consumer = HostJvm.start(hosts, "c1", "c1", dir.resolve("logs"), List.of("-Xmx128m"), ConsumerMain.class,
                ensemble.connectString(), Integer.toString(SESSION_MS), dir.toString());
        consumer.awaitLine("READY consumer", 60_000);
        for (HostJvm p : providers.values()) {
            p.awaitLine("READY ", 60_000);
        }
        awaitView(expectedView("p1", "p2"), 40_000);
        warmUp();
    }

    /**
     * Calls until a whole short run succeeds: a JVM's first calls (class loading, serializer code
     * generation, connecting) can outlast the call timeout on a busy machine, and no scenario should
     * count that as its own failure.
     */
    static void warmUp() throws Exception {
        CallLog last = null;
        for (int attempt = 1; attempt <= 5; attempt++) {
            Run run = new Run("warm" + ++warmRuns, 2);
            last = run.finish(List.of("p1", "p2"));
            if (last.failures().isEmpty() && last.answeredBy("p1", c -> true) > 0
                    && last.answeredBy("p2", c -> true) > 0) {
                return;
            }
        }
        fail("the bed did not warm up: 5 runs of 2 s each had failures or missed a provider; last: " + last.summary());
    }

    @AfterAll
    static void removeBed() throws IOException {
        if (consumer != null) {
            consumer.close();
        }
        providers.values().forEach(HostJvm::close);
        providers.clear();
        if (ensemble != null) {
            ensemble.close();
        }
        if (hosts != null) {
            hosts.close();
        }
        if (!results.isEmpty()) {
            Files.writeString(dir.resolve("results.txt"), String.join("\n", results) + "\n");
            results.forEach(r -> System.out.println("[testbed] " + r));
        }
    }

    /** Brings the bed back to its baseline (see the class comment), failing if it cannot within 40 s. */
    @BeforeEach
    void baseline() throws Exception {
        hosts.healAll();
        ensemble.startAll();
        ensemble.awaitServing(40_000);
        boolean started = false;
        for (String p : List.of("p1", "p2")) {
            if (providers.get(p) == null || !providers.get(p).isAlive()) {
                startProvider(p, hosts.address(p)).awaitLine("READY ", 60_000);
                started = true;
            }
        }
        stopProvider("p3");
        awaitView(expectedView("p1", "p2"), 40_000);
        if (started) {
            warmUp();
        }
    }

    /** Starts a provider JVM on host {@code name}, bound to {@code bindHost} ("-": the default). */
    static HostJvm startProvider(String name, String bindHost) throws IOException {
        HostJvm old = providers.get(name);
        if (old != null) {
            old.close();
        }
        HostJvm p = HostJvm.start(hosts, name, name, dir.resolve("logs"), List.of("-Xmx96m"), ProviderMain.class,
                name, bindHost, Integer.toString(PORT), ensemble.connectString(), Integer.toString(SESSION_MS),
                dir.resolve("calls-" + name + ".log").toString());
        providers.put(name, p);
        return p;
    }

    /** Stops a provider the way an orchestrator does (its watchdog exits, the shutdown hook closes the runtime). */
    static void stopProvider(String name) {
        HostJvm p = providers.remove(name);
        if (p != null) {
            p.close();
        }
    }

    static String expectedView(String... names) {
        return String.join(",", Stream.of(names).map(n -> hosts.address(n) + ":" + PORT).sorted().toList());
    }

    /** The provider addresses the consumer's registry shows now. */
    static String view() throws InterruptedException {
        consumer.send("view");
        return consumer.awaitLine("^VIEW (.*)$", 20_000).group(1);
    }

    /** Waits until the consumer's registry shows exactly {@code expected}; returns how long it took, in ms. */
    static long awaitView(String expected, long timeoutMs) throws InterruptedException {
        long start = System.nanoTime();
        String seen = "";
        while (System.nanoTime() - start < timeoutMs * 1_000_000L) {
            seen = view();
            if (seen.equals(expected)) {
                return (System.nanoTime() - start) / 1_000_000;
            }
            // kept: each look is a round trip to the consumer JVM being measured, and the time it took is reported
            Thread.sleep(200);
        }
        throw new AssertionError("the consumer's registry did not show [" + expected + "] within " + timeoutMs
                + " ms; it shows [" + seen + "]");
    }

    /** A run of calls the consumer drives in the background; {@link #at} paces the test's actions in it. */
    static final class Run {
        final String name;
        final int seconds;
        final long t0;

        Run(String name, int seconds) throws InterruptedException {
            this.name = name;
            this.seconds = seconds;
            consumer.send("run " + name + " " + seconds + " " + RATE);
            this.t0 = Long.parseLong(consumer.awaitLine("^STARTED " + name + " t0=(\\d+)", 20_000).group(1));
        }

        /** Sleeps until {@code ms} into the run; returns the epoch ms then. */
        long at(long ms) throws InterruptedException {
            long wait = t0 + ms - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait); // kept: the scenario's schedule within the run, not a wait for a condition
            }
            return System.currentTimeMillis();
        }

        /** Waits for the run to end and reads its calls, checked for consistency (every call ended, none twice). */
        CallLog finish(List<String> providerNames) throws Exception {
            int started = Integer.parseInt(consumer.awaitLine("^DONE " + name + " started=(\\d+)",
                    t0 + seconds * 1000L + 20_000 - System.currentTimeMillis()).group(1));
            CallLog log = new CallLog(name, t0, dir, providerNames);
            log.assertConsistent(started);
            return log;
        }

        /** Ends the run now (no more calls start), then as {@link #finish}. */
        CallLog stop(List<String> providerNames) throws Exception {
            consumer.send("stop");
            return finish(providerNames);
        }
    }

    /** Both baseline providers answered calls before {@code event} (the bed was whole when the fault came). */
    static void assertBothServedBefore(CallLog log, long event) {
        for (String p : List.of("p1", "p2")) {
            assertTrue(log.answeredBy(p, c -> c.end() < event) > 0, log.run + ": " + p
                    + " answered no call before the fault; " + log.summary());
        }
    }

    static void record(String scenario, CallLog log, String measured) {
        results.add(scenario + " | " + log.summary() + " | " + measured);
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
