package io.kestrel.rpc.perf.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(15, o.systems().size()); // raw, 12 framework variants (incl. fory, the compatible, TLS and observed ones), 2 REST
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
    void badValuesAreRejectedWithTheOptionName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PerfOptions.parse("--warmup", "soon"));
        assertTrue(e.getMessage().contains("--warmup"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--systems", "grpc"));
        assertTrue(e.getMessage().contains("Unknown system 'grpc'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> PerfOptions.parse("--threads", "0"));
        assertTrue(e.getMessage().contains("--threads must be 1..1000, was 0"), e.getMessage());
    }
}
