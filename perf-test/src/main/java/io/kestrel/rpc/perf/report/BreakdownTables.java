package io.kestrel.rpc.perf.report;

import static io.kestrel.rpc.perf.report.ReportWriter.find;
import static io.kestrel.rpc.perf.report.ReportWriter.markdownTable;
import static io.kestrel.rpc.perf.report.Units.bytes;

import io.kestrel.rpc.perf.support.Workload;
import java.util.ArrayList;
import java.util.List;

/** The tables of where a bid call's allocation goes ({@link AllocationBreakdown}): on the console and in the report. */
final class BreakdownTables {
    private BreakdownTables() {
    }

    /** The console table of the per-step allocation. */
    static String text(AllocationBreakdown b) {
        return ReportWriter.fixedWidth(HEADER, rows(b));
    }

    private static final String[] HEADER = {"serialization", "ser. request", "deser. request",
        "service", "ser. response", "deser. response", "client floor", "server floor"};

    private static List<String[]> rows(AllocationBreakdown b) {
        List<String[]> rows = new ArrayList<>();
        for (AllocationBreakdown.Row r : b.rows()) {
            rows.add(new String[] {r.serialization(), bytes(r.serializeRequest()), bytes(r.deserializeRequest()),
                bytes(r.service()), bytes(r.serializeResponse()), bytes(r.deserializeResponse()),
                bytes(r.clientFloor()), bytes(r.serverFloor())});
        }
        return rows;
    }

    /** The report's table: each side's per-step floor against its measured allocation per call. */
    static String markdown(AllocationBreakdown b, List<RunResult> results) {
        List<String[]> rows = new ArrayList<>();
        for (AllocationBreakdown.Row r : b.rows()) {
            RunResult run = find(results, "kestrel-" + r.serialization(), Workload.BID);
            boolean ok = run != null && run.status() == RunResult.Status.OK;
            double client = ok ? run.clientAllocPerCall() : Double.NaN;
            double server = ok ? run.serverAllocPerCall() : Double.NaN;
            rows.add(new String[] {r.serialization(),
                bytes(r.serializeRequest()) + " + " + bytes(r.deserializeResponse()) + " = " + bytes(r.clientFloor()),
                bytes(client), bytes(client - r.clientFloor()),
                bytes(r.deserializeRequest()) + " + " + bytes(r.service()) + " + " + bytes(r.serializeResponse())
                    + " = " + bytes(r.serverFloor()),
                bytes(server), bytes(server - r.serverFloor())});
        }
        return markdownTable(new String[] {"serialization", "client: ser. request + deser. response",
            "client measured/call", "client remainder", "server: deser. request + service + ser. response",
            "server measured/call", "server remainder"}, rows);
    }
}
