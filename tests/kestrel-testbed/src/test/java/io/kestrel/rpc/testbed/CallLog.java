package io.kestrel.rpc.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * One run's calls as the consumer saw them ({@code NAME.calls}) joined with what each provider recorded
 * running ({@code calls-<provider>.log}): the counts per provider and the checks every scenario makes.
 */
final class CallLog {
    record Call(String id, long start, long end, boolean ok, String detail) {
        /** The provider that answered (ok calls). */
        String provider() {
            return ok ? detail : null;
        }
    }

    final String run;
    final long t0;
    final List<Call> calls = new ArrayList<>();
    /** id -> how many times providers ran it (this run's ids only). */
    final Map<String, Integer> executions = new HashMap<>();
    /** provider -> ids it ran. */
    final Map<String, List<String>> ranBy = new TreeMap<>();

    CallLog(String run, long t0, Path dir, List<String> providers) throws IOException {
        this.run = run;
        this.t0 = t0;
        for (String line : Files.readAllLines(dir.resolve(run + ".calls"))) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t", 5);
            calls.add(new Call(f[0], Long.parseLong(f[1]), Long.parseLong(f[2]), f[3].equals("OK"), f[4]));
        }
        calls.sort((a, b) -> Long.compare(a.start, b.start));
        for (String p : providers) {
            Path file = dir.resolve("calls-" + p + ".log");
            List<String> ids = Files.exists(file) ? Files.readAllLines(file).stream()
                    .filter(id -> id.startsWith(run + "-")).toList() : List.of();
            ranBy.put(p, ids);
            ids.forEach(id -> executions.merge(id, 1, Integer::sum));
        }
    }

    List<Call> failures() {
        return calls.stream().filter(c -> !c.ok).toList();
    }

    /** Calls each provider answered, as the consumer counted them. */
    Map<String, Long> answeredBy() {
        return calls.stream().filter(Call::ok).collect(Collectors.groupingBy(Call::provider, TreeMap::new,
                Collectors.counting()));
    }

    long answeredBy(String provider, Predicate<Call> which) {
        return calls.stream().filter(c -> c.ok && c.provider().equals(provider) && which.test(c)).count();
    }

    /** The first call started at or after {@code from} that {@code provider} answered, or null. */
    Call firstAnsweredBy(String provider, long from) {
        return calls.stream().filter(c -> c.ok && c.provider().equals(provider) && c.start >= from).findFirst()
                .orElse(null);
    }

    /** The checks of every scenario: the consumer saw every call end, and no call ran twice. */
    void assertConsistent(int expectedCalls) {
        assertEquals(expectedCalls, calls.size(), run + ": every call started must have ended and been recorded");
        List<String> twice = executions.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey)
                .sorted().limit(10).toList();
        assertTrue(twice.isEmpty(), run + ": calls ran more than once (the reference is not idempotent): " + twice
                + " " + summary());
        // the consumer's count agrees with the providers': every answer came from a provider that ran the call
        for (Call c : calls) {
            if (c.ok) {
                assertTrue(ranBy.getOrDefault(c.provider(), List.of()).contains(c.id), run + ": " + c.id
                        + " answered by " + c.provider() + " which has no record of running it");
            }
        }
    }

    /** Fails unless every failed call satisfies {@code allowed}, naming the first that does not. */
    void assertFailuresOnly(Predicate<Call> allowed, String rule) {
        for (Call c : failures()) {
            assertTrue(allowed.test(c), run + ": call " + c.id + " failed outside what " + rule + " allows (started "
                    + (c.start - t0) + " ms, ended " + (c.end - t0) + " ms into the run): " + c.detail + "; "
                    + summary());
        }
    }

    /** Fails if any call failed, saying {@code why} none may and showing the first failures. */
    void assertNoFailure(String why) {
        List<Call> failed = failures();
        assertTrue(failed.isEmpty(), run + ": " + why + ", but " + failed.size() + " failed, first "
                + failed.stream().limit(3).map(c -> c.id + " at " + (c.start - t0) + " ms: " + c.detail).toList()
                + "; " + summary());
    }

    /** ms from {@code event} to the end of the last failed call, 0 when none failed after it. */
    long lastFailureAfter(long event) {
        return failures().stream().mapToLong(c -> c.end - event).filter(d -> d > 0).max().orElse(0);
    }

    String summary() {
        Map<String, Integer> ran = new TreeMap<>();
        ranBy.forEach((p, ids) -> ran.put(p, ids.size()));
        Map<String, Long> errors = failures().stream().collect(Collectors.groupingBy(
                c -> c.detail.split(":")[0], TreeMap::new, Collectors.counting()));
        return run + ": calls=" + calls.size() + " failed=" + failures().size() + " answeredBy=" + answeredBy()
                + " ranBy=" + ran + (errors.isEmpty() ? "" : " errors=" + errors);
    }
}
