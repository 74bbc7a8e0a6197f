package io.kestrel.rpc.perf.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.perf.support.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselinesTest {
    private static RunResult result(String system, int inflight, double tps, double clientAlloc, double serverAlloc) {
        return new RunResult(system, Workload.BID, RunResult.Status.OK, "", inflight == 0 ? 10 : 1, inflight, 1000, 0,
                tps, 100, 90, 200, 300, 400, 1100, 900, 1000, clientAlloc, serverAlloc, 0.5);
    }

    private final RunResult raw = result("raw-rpc-kryo", 0, 1000, 1000, 2000);
    private final RunResult kestrel = result("kestrel-kryo", 0, 900, 1200, 2300);
    private final RunResult tls = result("kestrel-kryo-tls", 0, 450, 1500, 2600);
    private final RunResult rawPipelined = result("raw-rpc-kryo", 256, 4000, 1100, 2100);
    private final RunResult kestrelPipelined = result("kestrel-kryo", 256, 2000, 1400, 2500);
    private final RunResult fory = result("kestrel-fory", 0, 800, 1000, 1000);

    @Test
    void everyFrameworkSystemIsReadAgainstTheMinimalRpcOfItsSerializationAtTheSameNumberInFlight() {
        Baselines b = new Baselines(List.of(raw, kestrel, tls, rawPipelined, kestrelPipelined, fory));
        assertEquals(0.9, b.ratioToRawRpc(kestrel), 1e-9);
        assertEquals(200, b.ownClientAlloc(kestrel), 1e-9);
        assertEquals(300, b.ownServerAlloc(kestrel), 1e-9);
        assertEquals(0.45, b.ratioToRawRpc(tls), 1e-9);
        assertEquals(0.5, b.ratioToRawRpc(kestrelPipelined), 1e-9);
        assertEquals(300, b.ownClientAlloc(kestrelPipelined), 1e-9);
        assertEquals(2000.0 / 900, b.ratioToSync(kestrelPipelined), 1e-9);
        assertTrue(Double.isNaN(b.ratioToSync(kestrel)));
        assertTrue(Double.isNaN(b.ratioToRawRpc(raw)));
        assertTrue(Double.isNaN(b.ratioToRawRpc(fory)), "no raw-rpc-fory in this run");
    }

    @Test
    void theCsvReadsBackTheResultsItWasWrittenFrom(@TempDir Path dir) throws Exception {
        List<RunResult> results = List.of(raw, kestrel, kestrelPipelined,
                RunResult.notRun("kestrel-fst", Workload.EXISTS, RunResult.Status.FAILED, "boom, \"quoted\"", 1, 16));
        Path csv = dir.resolve("r.csv");
        Files.writeString(csv, ResultsCsv.write(results, new Baselines(results)), StandardCharsets.UTF_8);
        assertEquals(results, ResultsCsv.read(csv));
        assertTrue(Files.readString(csv).contains(",0.900,"), "x raw-rpc in the CSV");
    }

    @Test
    void theIssueTargetsAreJudgedOnTheFairRatios() {
        String md = FairTargets.markdown(List.of(raw, kestrel, rawPipelined, kestrelPipelined),
                new Baselines(List.of(raw, kestrel, rawPipelined, kestrelPipelined)));
        assertTrue(md.contains("| kestrel-kryo bid TPS / raw-rpc-kryo | 0.90 | >= 0.9 | met |"), md);
        assertTrue(md.contains("| kestrel-kryo bid TPS with 256 in flight / synchronous | 2.22 | >= 2.0 | met |"), md);
        assertTrue(md.contains("| 200 B / 300 B | <= 256 B each | not met |"), md);
    }
}
