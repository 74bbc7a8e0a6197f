package io.kestrel.rpc.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.compare.system.BenchSystems;
import io.kestrel.rpc.perf.support.ObservedRpc;
import io.kestrel.rpc.perf.support.Workload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PerfOptionsTest {

    @Test
    void defaultsRunTheWholeMatrixWithTenThreads() {
        PerfOptions o = PerfOptions.parse();
        assertEquals(10, o.threads());
        assertEquals(Duration.ofSeconds(5), o.warmup());
        assertEquals(Duration.ofSeconds(10), o.measure());
        // raw echo, 8 minimal RPCs, 16 framework variants (incl. fory, the compatible, direct, TLS, observed and otel ones), 2 REST
        assertEquals(27, o.systems().size());
        assertEquals(List.of(), o.inflight());
        assertEquals(List.of(), o.jdks());
        assertEquals(List.of(Workload.values()), o.workloads());
        assertEquals(Path.of("perf-results"), o.outputDir());
    }

    @Test
    void quickShrinksOnlyWhatWasNotGivenExplicitly() {
        PerfOptions o = PerfOptions.parse("--threads", "4", "--quick", "--measure=1.5s");
        assertEquals(4, o.threads());
        assertEquals(Duration.ofMillis(300), o.warmup());
        assertEquals(Duration.ofMillis(1500), o.measure());
        assertTrue(o.quick());
    }

    @Test
    void systemGroupsExpandInRunOrderAndWorkloadsByLabel() {
        PerfOptions o = PerfOptions.parse("--systems", "rest,raw-netty,kestrel-kryo", "--workloads", "exists,bid");
        assertEquals(List.of("raw-netty", "kestrel-kryo", "rest-netty", "rest-tomcat"), o.systems());
        assertEquals(List.of(Workload.BID, Workload.EXISTS), o.workloads());
    }

    @Test
    void aSystemWithProviderSettingsRunsAfterThePlainOnesWithThemOnItsServerJvm() {
        PerfOptions o = PerfOptions.parse("--systems",
                "kestrel-kryo@provider.batchJoin=true+perf.threads=virtual,raw-rpc-kryo,Kestrel-Kryo");
        assertEquals(List.of("raw-rpc-kryo", "kestrel-kryo", "kestrel-kryo@provider.batchJoin=true+perf.threads=virtual"),
                o.systems());
        String variant = o.systems().get(2);
        assertEquals(List.of("-Dkestrel.rpc.provider.batchJoin=true", "-Dkestrel.perf.threads=virtual"),
                BenchSystems.serverFlags(variant));
        assertEquals("kryo", BenchSystems.variantOf(variant));
        assertEquals("raw-rpc-kryo", BenchSystems.rawRpcOf(variant), "read against the same minimal RPC");
        assertEquals(List.of(), BenchSystems.serverFlags("kestrel-kryo"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--systems", "kestrel-kryo@provider.batchJoin"));
        assertTrue(e.getMessage().contains("'provider.batchJoin' is not name=value"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--systems", "kestrel-nope@a=b"));
    }

    @Test
    void theObservedGroupRunsEachSerializationPlainThenWithEachTracing() {
        assertEquals(List.of("kestrel-kryo", "kestrel-kryo-observed", "kestrel-kryo-otel",
                "kestrel-fory", "kestrel-fory-observed", "kestrel-fory-otel"),
                PerfOptions.parse("--systems", "observed").systems());
    }

    @Test
    void traceSamplingReachesTheServerJvmsAndTheObservedSystemsHere() {
        PerfOptions every = PerfOptions.parse("--systems", "observed");
        assertEquals(1.0, every.traceSampling());
        assertEquals(List.of(), every.serverJvmArgs());

        PerfOptions o = PerfOptions.parse("--systems", "observed", "--trace-sampling", "0.1",
                "--server-jvm-args", "-Dkestrel.perf.dispatch=direct");
        assertEquals(0.1, o.traceSampling());
        assertEquals(List.of("-Dkestrel.perf.dispatch=direct", "-D" + ObservedRpc.SAMPLING_PROPERTY + "=0.1"),
                o.serverJvmArgs());
        assertTrue(o.toString().contains("trace-sampling=0.1"), o.toString());
        try {
            o.applyTraceSampling();
            try (ObservedRpc observed = new ObservedRpc()) {
                assertTrue(observed.samplerDescription().contains("TraceIdRatioBased{0.1"), observed.samplerDescription());
            }
            every.applyTraceSampling();
            try (ObservedRpc observed = new ObservedRpc(ObservedRpc.Tracing.OPENTELEMETRY)) {
                assertTrue(observed.samplerDescription().contains("AlwaysOnSampler"), observed.samplerDescription());
            }
        } finally {
            System.clearProperty(ObservedRpc.SAMPLING_PROPERTY);
        }
        for (String bad : List.of("0", "1.5", "-0.1", "often", "NaN")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> PerfOptions.parse("--trace-sampling", bad));
            assertTrue(e.getMessage().contains("trace sampling must be a share in (0, 1]") && e.getMessage().contains(bad),
                    e.getMessage());
        }
    }

    @Test
    void badValuesAreRejectedWithTheOptionName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--warmup", "soon"));
        assertTrue(e.getMessage().contains("--warmup"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--systems", "grpc"));
        assertTrue(e.getMessage().contains("Unknown system 'grpc'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--threads", "0"));
        assertTrue(e.getMessage().contains("--threads must be 1..1000, was 0"), e.getMessage());
    }

    @Test
    void pipelinedRunsAreOffByDefaultAndTakeTheirNumbersInFlight() {
        PerfOptions o = PerfOptions.parse("--inflight", "1,16,256,1024", "--async-callers", "1");
        assertEquals(List.of(1, 16, 256, 1024), o.inflight());
        assertEquals(1, o.asyncCallers());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--inflight", "4,16", "--async-callers", "8"));
        assertTrue(e.getMessage().contains("--async-callers 8 is more than the smallest --inflight 4"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--inflight", "0"));
        assertTrue(e.getMessage().contains("--inflight values must be 1..65536, was 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--inflight", "many"));
        assertTrue(e.getMessage().contains("--inflight takes numbers"), e.getMessage());
    }

    @Test
    void jdksAreFoundByFeatureVersionOrDirectoryAndAMissingOneIsNamedWithWhatWasFound() {
        String running = Integer.toString(Runtime.version().feature());
        PerfOptions o = PerfOptions.parse("--jdks", running + "," + System.getProperty("java.home"));
        assertEquals(1, o.jdks().size()); // the same JDK twice is run once
        assertEquals(running, o.jdks().get(0).label());
        assertTrue(java.nio.file.Files.isExecutable(o.jdks().get(0).java()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--jdks", "8"));
        assertTrue(e.getMessage().contains("--jdks: no JDK 8") && e.getMessage().contains(running + " at "),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--jdks", "/nonexistent/jdk"));
        assertTrue(e.getMessage().contains("/nonexistent/jdk is no JDK directory"), e.getMessage());
    }

    @Test
    void oneRoundByDefaultAndTheMatrixRepeatedWithRounds() {
        assertEquals(1, PerfOptions.parse().rounds());
        assertTrue(!PerfOptions.parse().toString().contains("rounds"), "one round reads as before");
        PerfOptions o = PerfOptions.parse("--rounds", "3", "--quick");
        assertEquals(3, o.rounds());
        assertTrue(o.toString().endsWith(", rounds=3"), o.toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--rounds", "0"));
        assertTrue(e.getMessage().contains("--rounds must be 1..100, was 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--rounds", "two"));
        assertTrue(e.getMessage().contains("--rounds"), e.getMessage());
    }

    @Test
    void freshClientChildrenGetEveryOptionButTheirSystemRoundsOutputAndJdks() {
        assertTrue(!PerfOptions.parse().freshClient());
        PerfOptions o = PerfOptions.parse("--fresh-client", "--systems", "observed", "--workloads", "bid",
                "--rounds", "3", "--warmup", "2s", "--out", "x", "--server-jvm-args", "-Da=1 -Db=2", "--quick");
        assertTrue(o.freshClient());
        assertEquals(List.of("--workloads", "bid", "--warmup", "2s", "--server-jvm-args", "-Da=1 -Db=2", "--quick"),
                o.childArgs());
        assertTrue(o.toString().contains("fresh-client"), o.toString());
        assertEquals(List.of(), PerfOptions.builder().freshClient(true).build().childArgs(), "built in code: none");
    }

    @Test
    void evenRoundsRunTheSystemsInReverseOrder() {
        List<String> systems = List.of("raw-rpc-kryo", "kestrel-kryo", "rest-netty");
        assertEquals(systems, PerfRunner.roundOrder(systems, 1));
        assertEquals(List.of("rest-netty", "kestrel-kryo", "raw-rpc-kryo"), PerfRunner.roundOrder(systems, 2));
        assertEquals(systems, PerfRunner.roundOrder(systems, 3));
    }

    @Test
    void childRunnersGetEveryOptionButTheJdksAndTheOutputDirectory() {
        assertEquals(List.of("--quick", "--systems", "raw-rpc-kryo", "--inflight", "1,16"), JdkRunner.childArgs(
                new String[] {"--quick", "--jdks", "17,25", "--systems", "raw-rpc-kryo", "--out=x", "--inflight", "1,16"}));
        assertEquals(List.of("--rounds", "3"), JdkRunner.childArgs(new String[] {"--jdks", "17,25", "--rounds", "3"}),
                "each JDK's runner runs the rounds itself");
    }
}
