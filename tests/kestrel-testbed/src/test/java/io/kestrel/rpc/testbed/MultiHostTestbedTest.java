package io.kestrel.rpc.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of issue 35 on the multi-host bed ({@link TestbedFixture}). The consumer on c1 calls at
 * {@value TestbedFixture#RATE} calls/s through a failover, non-idempotent reference; each call's id is
 * recorded by the provider that runs it. Every scenario checks that no call ran twice, that calls failed
 * only where a crash or the cluster rule allows, and how fast the bed recovered.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class MultiHostTestbedTest extends TestbedFixture {
    private static final List<String> P12 = List.of("p1", "p2");
    private static final List<String> P123 = List.of("p1", "p2", "p3");
    private static final String[] ZK = {"zk1", "zk2", "zk3"};
    /** A call sent before the consumer learned of a crash is in flight too: the time it has to learn. */
    private static final long CRASH_NOTICE_MS = 250;
    /** How long a black-holed provider may take a share of calls (outlier ejection). */
    private static final long EJECTION_MS = ConsumerMain.TIMEOUT_MS + 2000;
    /** The shortest ejection (ResilienceConfig's default outlier-ejection): at most one probe call per period. */
    private static final long PROBE_PERIOD_MS = 1000;
    /** How long a provider (re)joining may take to get calls once it is ready and the registry serves. */
    private static final long JOIN_MS = 6000;

    @Test
    @Order(1)
    void killMinus9OfAProvider() throws Exception {
        Run run = new Run("kill9", 16);
        long kill = run.at(2500);
        providers.get("p1").signal("KILL");
        assertTrue(providers.get("p1").awaitExit(5000) >= 0, "p1 did not die of kill -9");
        run.at(3500);
        startProvider("p1", hosts.address("p1")).awaitLine("READY ", 30_000);
        long ready = System.currentTimeMillis();
        CallLog log = run.finish(P12);

        assertBothServedBefore(log, kill);
        log.assertFailuresOnly(c -> c.start() <= kill + CRASH_NOTICE_MS && c.end() >= kill,
                "a crash (calls in flight at the kill)");
        CallLog.Call back = log.firstAnsweredBy("p1", ready);
        assertNotNull(back, "restarted p1 got no call in the rest of the run; " + log.summary());
        assertTrue(back.start() - ready <= JOIN_MS, "restarted p1 got its first call " + (back.start() - ready)
                + " ms after it was ready; bound " + JOIN_MS + " ms");
        record("kill -9 of p1", log, "failed calls all in flight at the kill; last failure ended "
                + log.lastFailureAfter(kill) + " ms after it; restarted p1 called " + (back.start() - ready)
                + " ms after ready");
    }

    @Test
    @Order(2)
    void blackHoledProvider() throws Exception {
        Run run = new Run("blackhole", 16);
        run.at(2500);
        hosts.blackhole("c1", "p1");
        long cut = System.currentTimeMillis(); // the route is in place: calls started earlier may still get through
        long heal = run.at(10_000);
        hosts.heal("c1", "p1");
        CallLog log = run.finish(P12);

        assertBothServedBefore(log, cut);
        // until ejected, calls sent to p1 time out: they may have run, so the cluster rule does not retry them
        long ejected = cut + EJECTION_MS;
        log.assertFailuresOnly(c -> c.start() >= cut - ConsumerMain.TIMEOUT_MS && c.start() <= ejected
                || c.start() > ejected && c.start() < heal, "the cluster rule (timeouts of calls sent to a silent"
                + " provider until its ejection within " + EJECTION_MS + " ms, then only its probe calls)");
        // ejected, p1 gets one probe call per ejection period (1 s, doubling): isolated failures, no share of calls
        List<CallLog.Call> probes = log.failures().stream().filter(c -> c.start() > ejected).toList();
        assertTrue(probes.size() <= (heal - ejected) / PROBE_PERIOD_MS, "p1 still took a share of calls after its"
                + " ejection: " + probes.size() + " failures; " + log.summary());
        for (int i = 1; i < probes.size(); i++) {
            assertTrue(probes.get(i).start() - probes.get(i - 1).start() >= PROBE_PERIOD_MS - 100, "two calls failed "
                    + "on ejected p1 within one ejection period: " + probes.get(i - 1).id() + ", " + probes.get(i).id());
        }
        assertEquals(0, log.answeredBy("p1", c -> c.start() > cut && c.end() < heal),
                "p1 answered while black-holed: the cut did not hold; " + log.summary());
        CallLog.Call back = log.firstAnsweredBy("p1", heal);
        assertNotNull(back, "p1 got no call after the route came back; " + log.summary());
        assertTrue(back.start() - heal <= JOIN_MS, "p1 got calls again " + (back.start() - heal)
                + " ms after the route came back; bound " + JOIN_MS + " ms");
        long lastTimeout = log.failures().stream().filter(c -> c.start() <= ejected).mapToLong(CallLog.Call::end)
                .max().orElse(cut) - cut;
        record("black-holed p1 (c1 -> p1 dropped 7.5 s)", log, "timeouts until " + lastTimeout + " ms after the cut,"
                + " then " + probes.size() + " failed probe calls; p1 called again " + (back.start() - heal)
                + " ms after the heal");
    }

    @Test
    @Order(3)
    void providersCutFromZooKeeperPastSessionExpiry() throws Exception {
        Run run = new Run("providers-cut", 18);
        run.at(2500);
        hosts.blackhole("p1", ZK);
        hosts.blackhole("p2", ZK);
        long heal = run.at(2500 + SESSION_MS + 4000);
        hosts.heal("p1", ZK);
        hosts.heal("p2", ZK);
        CallLog log = run.finish(P12);

        log.assertNoFailure("no call may fail while every provider runs");
        for (String p : P12) {
            assertNotNull(log.firstAnsweredBy(p, heal), p + " got no call after it reached ZooKeeper again; "
                    + log.summary());
        }
        long registered = awaitView(expectedView("p1", "p2"), 20_000);
        record("p1, p2 cut from ZooKeeper 8 s (session 4 s)", log, "no failure; both listed again "
                + registered + " ms after the run, both called after the heal");
    }

    @Test
    @Order(4)
    void ensembleLeaderLoss() throws Exception {
        int leader = ensemble.leader();
        assertTrue(leader > 0, "no ZooKeeper node leads");
        Run run = new Run("leader-loss", 12);
        run.at(2500);
        ensemble.kill(leader);
        long election = ensemble.awaitServing(15_000);
        run.at(7000);
        ensemble.start(leader);
        CallLog log = run.finish(P12);
        ensemble.awaitServing(30_000);

        log.assertNoFailure("losing the ZooKeeper leader must fail no call");
        assertTrue(log.answeredBy("p1", c -> c.start() > run.t0 + 7000) > 0
                && log.answeredBy("p2", c -> c.start() > run.t0 + 7000) > 0, "a provider dropped out; " + log.summary());
        awaitView(expectedView("p1", "p2"), 20_000);
        record("ZooKeeper leader zk" + leader + " killed", log, "no failure; new leader in " + election + " ms");
    }

    @Test
    @Order(5)
    void ensembleDownAndBack() throws Exception {
        ensembleOutage("ensemble-down", false, 2500 + SESSION_MS + 3000, "ensemble down 7 s, then back");
    }

    @Test
    @Order(6)
    void zooKeeperBackEmpty() throws Exception {
        ensembleOutage("back-empty", true, 4000, "ensemble back empty (data wiped)");
    }

    /**
     * Stops the whole ensemble 2.5 s into a run, wipes its data if asked, starts it again at {@code backAt} ms
     * together with a new provider p3, and checks: no call failed, p3 (registered in the ensemble that came
     * back) got calls within {@link #JOIN_MS} of being ready (the consumer's subscription works again), and
     * the registry lists p1, p2 and p3 (the providers registered again).
     */
    private static void ensembleOutage(String name, boolean wipe, long backAt, String scenario) throws Exception {
        Run run = new Run(name, 80); // stopped once p3 had time to join: how long the ensemble takes varies
        run.at(2500);
        ensemble.killAll();
        if (wipe) {
            for (int id = 1; id <= Ensemble.SIZE; id++) {
                ensemble.wipe(id);
            }
        }
        long back = run.at(backAt);
        ensemble.startAll();
        long serving = ensemble.awaitServing(45_000);
        // started once the ensemble serves: four JVMs starting at once on two cores stall the running ones
        long ready = joinP3();
        Thread.sleep(JOIN_MS + 1000); // kept: the run goes on with p3 for this long; assertJoined checks its calls
        CallLog log = run.stop(P123);

        log.assertNoFailure("an outage of the whole registry must fail no call");
        long joined = assertJoined(log, ready);
        long listed = awaitView(expectedView("p1", "p2", "p3"), 20_000);
        record(scenario, log, "no failure; serving " + serving + " ms after the restart, p3 ready after "
                + (ready - back) + " ms and called " + joined + " ms later; all listed " + listed + " ms after the run");
    }

    @Test
    @Order(7)
    void consumerCutFromZooKeeper() throws Exception {
        Run run = new Run("consumer-cut", 20);
        run.at(2500);
        hosts.blackhole("c1", ZK);
        joinP3();
        long heal = run.at(2500 + SESSION_MS + 4000);
        hosts.heal("c1", ZK);
        CallLog log = run.finish(P123);

        log.assertNoFailure("a consumer cut from ZooKeeper keeps its providers");
        assertEquals(0, log.answeredBy("p3", c -> c.end() < heal), "the consumer called p3 before it could know"
                + " of it: the cut did not hold; " + log.summary());
        long joined = assertJoined(log, heal);
        record("c1 cut from ZooKeeper 8 s (session 4 s), p3 joins meanwhile", log, "no failure; p3 called "
                + joined + " ms after the heal");
    }

    @Test
    @Order(8)
    void sigtermDuringARegistryOutage() throws Exception {
        Run run = new Run("sigterm-outage", 12);
        run.at(2500);
        hosts.blackhole("p2", ZK);
        long term = run.at(3500);
        HostJvm p2 = providers.get("p2");
        int code;
        try {
            p2.signal("TERM");
            code = p2.awaitExit(25_000);
        } finally {
            stopProvider("p2"); // if it hangs: SIGKILL, and the next baseline starts a new one
        }
        long exited = System.currentTimeMillis() - term;
        CallLog log = run.finish(P12);

        assertTrue(code >= 0, "p2 did not exit within 25 s of SIGTERM while ZooKeeper was unreachable");
        // shutdownTimeout 2 s for draining, RegistryConfig's unregister-timeout (3 s) at most, and 3 s to spare
        assertTrue(exited <= 8000, "p2 took " + exited + " ms to shut down during a registry outage; bound 8000 ms"
                + " (unregistering must be bounded)");
        log.assertNoFailure("a graceful shutdown must fail no call");
        assertEquals(0, log.answeredBy("p2", c -> c.start() > term + exited), "p2 answered after it exited");
        record("SIGTERM to p2 cut from ZooKeeper", log, "no failure; p2 exited " + exited + " ms after SIGTERM");
    }

    @Test
    @Order(9)
    void advertisedAddress() throws Exception {
        stopProvider("p3");
        startProvider("p3", "-").awaitLine("READY ", 30_000);
        long listed = awaitView(expectedView("p1", "p2", "p3"), 15_000);
        Run run = new Run("advertised", 6);
        CallLog log = run.finish(P123);

        log.assertNoFailure("a provider on its default protocol host must be reachable from other hosts");
        assertTrue(log.answeredBy("p3", c -> true) > 0, "p3 (default protocol host) got no call from another host; "
                + log.summary());
        record("p3 with the default protocol host, remote registry", log, "listed as " + hosts.address("p3")
                + " in " + listed + " ms; called from c1");
    }

    /** Starts p3 on its own address; returns the epoch ms it was ready (registered). */
    private static long joinP3() throws Exception {
        return awaitReady(startProvider("p3", hosts.address("p3")));
    }

    private static long awaitReady(HostJvm provider) throws InterruptedException {
        provider.awaitLine("READY ", 30_000);
        return System.currentTimeMillis();
    }

    /** Asserts p3 got a call within {@link #JOIN_MS} of {@code from}; returns after how many ms. */
    private static long assertJoined(CallLog log, long from) {
        CallLog.Call first = log.firstAnsweredBy("p3", from);
        assertNotNull(first, "the consumer never called the provider that joined (p3); " + log.summary());
        long after = first.start() - from;
        assertTrue(after <= JOIN_MS, "p3 got its first call " + after + " ms late; bound " + JOIN_MS + " ms; "
                + log.summary());
        return after;
    }
}
