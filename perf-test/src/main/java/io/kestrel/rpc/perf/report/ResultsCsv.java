package io.kestrel.rpc.perf.report;

import io.kestrel.rpc.perf.support.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The CSV form of the results ({@value ReportWriter#CSV}): one row per configuration, the note last
 * (quoted), so that {@link #read} can take a run's results back, as the multi-JDK report does.
 * Empty cells are unknown figures.
 */
public final class ResultsCsv {
    static final String HEADER = "system,workload,status,threads,inflight,calls,errors,tps,ratio_to_raw,"
            + "ratio_to_raw_rpc,ratio_to_sync,mean_us,p50_us,p99_us,p999_us,max_us,request_bytes_per_call,"
            + "response_bytes_per_call,argument_bytes,request_overhead_bytes,client_alloc_bytes_per_call,"
            + "server_alloc_bytes_per_call,client_cpu_us_per_call,server_cpu_us_per_call,"
            + "own_client_alloc_bytes_per_call,own_server_alloc_bytes_per_call,note";
    private static final int COLUMNS = HEADER.split(",").length;

    private ResultsCsv() {
    }

    /** The CSV text of {@code results}, with the figures {@code baselines} derives. */
    public static String write(List<RunResult> results, Baselines baselines) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (RunResult r : results) {
            sb.append(row(r, baselines)).append('\n');
        }
        return sb.toString();
    }

    /**
     * The CSV text of every round ({@value ReportWriter#ROUNDS_CSV}): a first column {@code round} (from 1),
     * then the columns of {@link #write}, each round's ratios taken within that round, so a reviewer can
     * recompute the medians.
     */
    public static String writeRounds(List<List<RunResult>> rounds) {
        StringBuilder sb = new StringBuilder("round,").append(HEADER).append('\n');
        for (int i = 0; i < rounds.size(); i++) {
            Baselines baselines = new Baselines(rounds.get(i));
            for (RunResult r : rounds.get(i)) {
                sb.append(i + 1).append(',').append(row(r, baselines)).append('\n');
            }
        }
        return sb.toString();
    }

    private static String row(RunResult r, Baselines baselines) {
        return String.join(",", r.system(), r.workload().label(), r.status().name(),
        Integer.toString(r.threads()), Integer.toString(r.inflight()), Long.toString(r.calls()),
        Long.toString(r.errors()), num(r.tps()), num(r.ratioToRaw()), num(baselines.ratioToRawRpc(r)),
        num(baselines.ratioToSync(r)), num(r.meanMicros()), num(r.p50Micros()), num(r.p99Micros()),
        num(r.p999Micros()), num(r.maxMicros()), num(r.requestBytesPerCall()),
        num(r.responseBytesPerCall()), Long.toString(r.argumentBytes()), num(r.requestOverheadBytes()),
        num(r.clientAllocPerCall()), num(r.serverAllocPerCall()), num(r.clientCpuMicrosPerCall()),
        num(r.serverCpuMicrosPerCall()), num(baselines.ownClientAlloc(r)),
        num(baselines.ownServerAlloc(r)),
        '"' + r.note().replace("\"", "\"\"").replace('\n', ' ') + '"');
    }

    /**
     * Reads the results back from a file {@link #write} wrote (derived columns are recomputed by
     * whoever needs them).
     *
     * @throws IOException if the file cannot be read or is not such a CSV (the message names the line)
     */
    public static List<RunResult> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals(HEADER)) {
            throw new IOException(csv + " is not a perf-test results CSV of this version (header differs)");
        }
        List<RunResult> results = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (!lines.get(i).isBlank()) {
                results.add(parse(lines.get(i), csv, i + 1));
            }
        }
        return results;
    }

    /**
     * Reads every round's results back from a file {@link #writeRounds} wrote.
     *
     * @throws IOException if the file cannot be read or is not such a CSV (the message names the line)
     */
    public static List<List<RunResult>> readRounds(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).equals("round," + HEADER)) {
            throw new IOException(csv + " is not a perf-test rounds CSV of this version (header differs)");
        }
        List<List<RunResult>> rounds = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            int comma = line.indexOf(',');
            int round;
            try {
                round = Integer.parseInt(line.substring(0, Math.max(comma, 0)));
            } catch (NumberFormatException e) {
                throw new IOException(csv + " line " + (i + 1) + " does not start with a round number", e);
            }
            if (round == rounds.size() + 1) {
                rounds.add(new ArrayList<>());
            } else if (round < 1 || round != rounds.size()) {
                throw new IOException(
                        csv + " line " + (i + 1) + " is of round " + round + " after round " + rounds.size());
            }
            rounds.get(round - 1).add(parse(line.substring(comma + 1), csv, i + 1));
        }
        return rounds;
    }

    /** One row of {@link #HEADER}'s columns; {@code lineNumber} (from 1) for the error message. */
    private static RunResult parse(String line, Path csv, int lineNumber) throws IOException {
        String[] c = line.split(",", COLUMNS);
        if (c.length != COLUMNS) {
            throw new IOException(csv + " line " + lineNumber + " has " + c.length + " cells, expected " + COLUMNS);
        }
        try {
            String note = c[26].length() >= 2 ? c[26].substring(1, c[26].length() - 1).replace("\"\"", "\"") : "";
            return new RunResult(c[0], Workload.byLabel(c[1]), RunResult.Status.valueOf(c[2]), note,
                    Integer.parseInt(c[3]), Integer.parseInt(c[4]), Long.parseLong(c[5]), Long.parseLong(c[6]),
                    dbl(c[7]), dbl(c[11]), dbl(c[12]), dbl(c[13]), dbl(c[14]), dbl(c[15]), dbl(c[16]), dbl(c[17]),
                    Long.parseLong(c[18]), dbl(c[20]), dbl(c[21]), dbl(c[22]), dbl(c[23]), dbl(c[8]));
        } catch (IllegalArgumentException e) {
            throw new IOException(csv + " line " + lineNumber + ": " + e.getMessage(), e);
        }
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, "%.3f", v);
    }

    private static double dbl(String cell) {
        return cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
    }
}
