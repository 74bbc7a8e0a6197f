package io.kestrel.rpc.serialization;

import static io.kestrel.rpc.serialization.SerializationTestSupport.FIXTURE_PACKAGE;
import static io.kestrel.rpc.serialization.SerializationTestSupport.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.DecodeLimitException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.DecodeLimits;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.serialization.fixture.BidRequest;
import io.kestrel.rpc.serialization.fixture.CountingKey;
import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Decoding is held to a {@link DecodeBudget} by every serialization that says it can
 * ({@link Serialization#boundsDecodeWork()}), and partly by the others. Work is asserted by counts
 * (hash calls on a counting element, values decoded), never by timing: an unbounded decode of the
 * depth-28 "SerialDOS" value hashes its leaves hundreds of millions of times (about 10 s), a bounded
 * one a few thousand.
 */
class DecodeBudgetTest {
    /** Serializations whose reader has no hook to bound hash work (see their boundsDecodeWork()). */
    private static final Set<String> NOT_WORK_BOUNDED = Set.of("java", "fastjson2");

    static Stream<Serialization> all() {
        return SerializationTestSupport.all();
    }

    static Stream<Arguments> serialDosSweep() {
        return SerializationTestSupport.names().stream()
                .flatMap(name -> Stream.of(10, 20, 28, 45, 100).map(depth -> Arguments.of(name, depth)));
    }

    private static Serializer create(String name, DecodeLimits limits) {
        return Serializations.installed().byName(name).create(SerializationOptions.builder()
                .allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURE_PACKAGE)).decodeLimits(limits).build());
    }

    private static Object read(Serializer s, byte[] bytes, Class<?> type, DecodeBudget budget) {
        return s.deserialize(new ByteArrayInputStream(bytes), type, budget);
    }

    /**
     * The "SerialDOS" shape: each level is a HashSet holding two sets of the next level, both levels
     * sharing them, so hashing level 1 hashes the last level 2^depth times. Built top-down (sets are
     * filled after insertion), so building and writing it never hash deeply.
     */
    static Set<Object> serialDos(int depth) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < depth; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add(new CountingKey("leaf"));
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    /**
     * Every serialization refuses the SerialDOS value with the defaults at every depth that could hurt,
     * after hashing its leaves at most a few thousand times. fastjson2 cannot be bounded (its JSONB reader
     * applies no depth limit either) and is skipped: providers refuse it unless configured.
     */
    @ParameterizedTest(name = "{0} depth {1}")
    @MethodSource("serialDosSweep")
    void serialDosIsRefusedAfterBoundedWork(String name, int depth) {
        org.junit.jupiter.api.Assumptions.assumeFalse(name.equals("fastjson2"),
                "fastjson2 cannot bound hash work; it is refused by providers unless configured (boundsDecodeWork=false)");
        Serializer serializer = create(name, DecodeLimits.defaults());
        byte[] bytes = write(serializer, serialDos(depth));
        CountingKey.reset();
        DecodeLimitException e = assertThrows(DecodeLimitException.class,
                () -> read(serializer, bytes, String.class, DecodeBudget.defaults()), name + " accepted SerialDOS depth " + depth);
        assertTrue(e.getMessage().startsWith(name + " could not deserialize"), e.getMessage());
        assertEquals(DecodeLimits.Limit.HASH_NESTING, e.limit(), e.getMessage());
        assertTrue(e.getMessage().contains("maxHashNesting=" + DecodeLimits.DEFAULT_MAX_HASH_NESTING)
                && e.getMessage().contains(DecodeLimits.MAX_HASH_NESTING_PROPERTY), e.getMessage());
        assertTrue(CountingKey.HASHES.get() < 5_000, name + " hashed leaves " + CountingKey.HASHES.get() + " times");
    }

    /**
     * With the nesting cap lifted, the hash-work budget still refuses SerialDOS for every serialization
     * that bounds decode work, and the JDK hashed no more than that budget allows.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void hashWorkBudgetRefusesSerialDosEvenWithoutANestingCap(Serialization s) {
        org.junit.jupiter.api.Assumptions.assumeTrue(s.boundsDecodeWork(), s.name() + " does not bound hash work");
        DecodeLimits limits = DecodeLimits.builder().maxHashNesting(1_000).maxDepth(1_000).maxHashWork(100_000).build();
        Serializer serializer = create(s.name(), limits);
        byte[] bytes = write(serializer, serialDos(45));
        CountingKey.reset();
        DecodeLimitException e = assertThrows(DecodeLimitException.class,
                () -> read(serializer, bytes, Object.class, DecodeBudget.of(limits)));
        assertEquals(DecodeLimits.Limit.HASH_WORK, e.limit(), e.getMessage());
        assertTrue(e.getMessage().contains("maxHashWork=100000") && e.getMessage().contains(DecodeLimits.MAX_HASH_WORK_PROPERTY),
                e.getMessage());
        assertTrue(CountingKey.HASHES.get() <= 100_000, s.name() + " hashed leaves " + CountingKey.HASHES.get() + " times");
    }

    /**
     * Not only nested sets: one HashSet holding a list whose levels reference the level below twice
     * (no set inside a set at all) costs 2^30 hashes to insert; refused by the hash-work budget.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void sharedListsInsideOneSetAreRefusedByHashWork(Serialization s) {
        org.junit.jupiter.api.Assumptions.assumeTrue(s.boundsDecodeWork(), s.name() + " does not bound hash work");
        List<Object> level = new ArrayList<>(List.of(new CountingKey("leaf")));
        for (int i = 0; i < 30; i++) {
            List<Object> next = new ArrayList<>();
            next.add(level);
            next.add(level);
            level = next;
        }
        // the set's element is hashed here while still empty, then filled: building it costs nothing
        Set<Object> hostile = new HashSet<>();
        List<Object> top = new ArrayList<>();
        hostile.add(top); // hashed while empty
        top.add(level);
        top.add(level);
        Serializer serializer = create(s.name(), DecodeLimits.defaults());
        byte[] bytes = write(serializer, hostile);
        CountingKey.reset();
        DecodeLimitException e = assertThrows(DecodeLimitException.class,
                () -> read(serializer, bytes, Object.class, DecodeBudget.defaults()));
        assertEquals(DecodeLimits.Limit.HASH_WORK, e.limit(), e.getMessage());
        assertTrue(CountingKey.HASHES.get() <= DecodeLimits.DEFAULT_MAX_HASH_WORK,
                s.name() + " hashed leaves " + CountingKey.HASHES.get() + " times");
    }

    /** The serializations that cannot bound hash work say so, so providers refuse them by default. */
    @Test
    void aRestartedBudgetCountsFromZeroWithTheNewLimitsAndDeadline() {
        DecodeLimits five = DecodeLimits.defaults().toBuilder().maxElements(5).build();
        DecodeBudget budget = DecodeBudget.withDeadline(five, System.nanoTime() + 60_000_000_000L);
        budget.enter();
        budget.elements(5);
        budget.chargeHashWork(7);
        assertThrows(DecodeLimitException.class, budget::element, "the sixth value is over the limit");

        assertTrue(budget == budget.restart(five, System.nanoTime() + 60_000_000_000L), "restart returns the budget itself");
        assertEquals(0, budget.elementsUsed());
        assertEquals(0, budget.depth());
        assertEquals(0, budget.hashWorkUsed());
        budget.elements(5); // all five again: nothing of the value before is counted
        assertThrows(DecodeLimitException.class, budget::element);

        DecodeLimits ten = DecodeLimits.defaults().toBuilder().maxElements(10).build();
        budget.restart(ten, System.nanoTime() + 60_000_000_000L).elements(10);
        assertEquals(ten, budget.limits());

        budget.restart(ten, System.nanoTime() - 1);
        DecodeLimitException late = assertThrows(DecodeLimitException.class, budget::checkDeadline);
        assertEquals(DecodeLimits.Limit.DEADLINE, late.limit());
        budget.restart(five).checkDeadline(); // no deadline any more
        assertFalse(budget.hasDeadline());
        assertEquals(five, budget.limits());
    }

    /**
     * A budget restarted with the time now already known (when the value's frame was read) takes it for its first
     * look at the deadline instead of the clock, and reads the clock for the looks after it: a value the reader got
     * before its deadline starts decoding even if the deadline has passed since, and is still stopped at the next look.
     */
    @Test
    void theFirstLookAtTheDeadlineTakesTheTimeTheReaderKnewAndTheNextLooksReadTheClock() {
        DecodeLimits limits = DecodeLimits.defaults();
        long passed = System.nanoTime() - 1_000_000L; // a millisecond ago
        DecodeBudget budget = DecodeBudget.defaults().restart(limits, passed, passed - 1_000_000L); // read before it
        budget.enter(); // the first look: before the deadline by the time known
        for (int i = 1; i < DecodeBudget.DEADLINE_CHECK_INTERVAL; i++) {
            budget.element(); // no look in between
        }
        DecodeLimitException late = assertThrows(DecodeLimitException.class, budget::element,
                "the next look reads the clock, which is past the deadline");
        assertEquals(DecodeLimits.Limit.DEADLINE, late.limit());

        long future = System.nanoTime() + 60_000_000_000L;
        budget.restart(limits, future, future + 1); // the reader knew the deadline had passed when it read the value
        DecodeLimitException known = assertThrows(DecodeLimitException.class, budget::enter);
        assertEquals(DecodeLimits.Limit.DEADLINE, known.limit());

        budget.restart(limits, future, 0); // 0: not known, the clock decides
        budget.enter();
        budget.restart(limits, passed); // a plain restart knows nothing: the clock, at the first value
        assertThrows(DecodeLimitException.class, budget::enter);
    }

    @Test
    void onlyJavaAndFastjson2SayTheyCannotBoundDecodeWork() {
        for (String name : Serializations.installed().names().keySet()) {
            assertEquals(!NOT_WORK_BOUNDED.contains(name), Serializations.installed().byName(name).boundsDecodeWork(), name);
        }
    }

    /**
     * A deadline already passed stops decoding at the first value boundary: of a million-element list,
     * at most {@link DecodeBudget#DEADLINE_CHECK_INTERVAL} values are decoded.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void passedDeadlineStopsDecodingAtTheNextValue(Serialization s) {
        Serializer serializer = create(s.name(), DecodeLimits.defaults());
        List<Integer> big = new ArrayList<>();
        for (int i = 0; i < 1_000_000; i++) {
            big.add(i);
        }
        byte[] bytes = write(serializer, big);
        DecodeBudget budget = DecodeBudget.withDeadline(DecodeLimits.defaults(), System.nanoTime() - 1);
        DecodeLimitException e = assertThrows(DecodeLimitException.class, () -> read(serializer, bytes, List.class, budget));
        assertEquals(DecodeLimits.Limit.DEADLINE, e.limit(), e.getMessage());
        assertTrue(e.getMessage().contains("deadline passed"), e.getMessage());
        assertTrue(budget.elementsUsed() <= DecodeBudget.DEADLINE_CHECK_INTERVAL,
                s.name() + " decoded " + budget.elementsUsed() + " values after the deadline");
    }

    /**
     * A deadline that passes while a value is being decoded stops it there, part-way: the list is decoded once
     * without a deadline to time it, then with a deadline a third of that time away, which must cut it with some
     * values decoded and far from all. An attempt whose deadline passed before the first value (a pause of this
     * JVM), or that finished before its deadline (a faster run), shows nothing and is made again, up to five times.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void deadlinePassingMidValueStopsDecodingThere(Serialization s) {
        org.junit.jupiter.api.Assumptions.assumeFalse(s.name().equals("fastjson2"),
                "fastjson2 checks the deadline only between values, not inside one (boundsDecodeWork=false)");
        Serializer serializer = create(s.name(), DecodeLimits.defaults());
        int count = 500_000;
        List<Long> big = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            big.add(1_000_000L + i);
        }
        byte[] bytes = write(serializer, big);
        long full = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long start = System.nanoTime();
            assertEquals(count, ((List<?>) read(serializer, bytes, List.class, DecodeBudget.defaults())).size());
            full = Math.min(full, System.nanoTime() - start);
        }
        List<String> attempts = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            DecodeBudget budget = DecodeBudget.withDeadline(DecodeLimits.defaults(), System.nanoTime() + full / 3);
            try {
                read(serializer, bytes, List.class, budget);
                attempts.add("finished before its deadline");
                continue;
            } catch (DecodeLimitException e) {
                assertEquals(DecodeLimits.Limit.DEADLINE, e.limit(), e.getMessage());
            }
            long decoded = budget.elementsUsed();
            assertTrue(decoded < count, s.name() + " decoded every value before stopping");
            if (decoded > DecodeBudget.DEADLINE_CHECK_INTERVAL) {
                return; // cut part-way
            }
            attempts.add("stopped after " + decoded + " values");
        }
        throw new AssertionError(s.name() + " was never cut part-way by a deadline of " + full / 3 / 1_000 + " us (a full"
                + " decode took " + full / 1_000 + " us): " + attempts);
    }

    /** A value nested deeper than maxDepth is refused with a message naming the limit and its setting. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void tooDeepIsRefusedNamingTheSetting(Serialization s) {
        org.junit.jupiter.api.Assumptions.assumeFalse(s.name().equals("fastjson2"),
                "fastjson2's JSONB reader does not apply its maxLevel to nested lists (boundsDecodeWork=false)");
        Serializer serializer = create(s.name(), DecodeLimits.defaults());
        List<Object> deep = new ArrayList<>();
        List<Object> cursor = deep;
        for (int i = 0; i < 200; i++) {
            List<Object> next = new ArrayList<>();
            cursor.add(next);
            cursor = next;
        }
        byte[] bytes = write(serializer, deep);
        DecodeLimitException e = assertThrows(DecodeLimitException.class,
                () -> read(serializer, bytes, Object.class, DecodeBudget.defaults()));
        assertEquals(DecodeLimits.Limit.DEPTH, e.limit(), e.getMessage());
        assertTrue(e.getMessage().contains("maxDepth=" + DecodeLimits.DEFAULT_MAX_DEPTH), e.getMessage());
        assertTrue(e.getMessage().contains("-D" + DecodeLimits.MAX_DEPTH_PROPERTY), e.getMessage());
    }

    /** One budget covers all values of a call: two arguments that fit alone may not fit together. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void elementBudgetIsPerCallAcrossArguments(Serialization s) {
        org.junit.jupiter.api.Assumptions.assumeFalse(s.name().equals("fastjson2"),
                "fastjson2's JSONB reader cannot count values (boundsDecodeWork=false)");
        DecodeLimits limits = DecodeLimits.builder().maxElements(1_500).build();
        Serializer serializer = create(s.name(), limits);
        // java's ObjectInputFilter (which holds its stream to the budget) is called for every object read, but not
        // for strings, which the stream writes as values of their own: java is checked with numbers, the others
        // with strings (javaCountsEveryObjectButStrings pins the difference)
        List<Object> thousand = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            thousand.add(s.name().equals("java") ? Long.valueOf(1_000_000L + i) : "v" + i);
        }
        byte[] bytes = write(serializer, thousand);
        assertEquals(thousand, read(serializer, bytes, List.class, DecodeBudget.of(limits)), "one argument fits");
        DecodeBudget call = DecodeBudget.of(limits);
        read(serializer, bytes, List.class, call);
        DecodeLimitException e = assertThrows(DecodeLimitException.class, () -> read(serializer, bytes, List.class, call));
        assertEquals(DecodeLimits.Limit.ELEMENTS, e.limit(), e.getMessage());
        assertTrue(e.getMessage().contains("maxElements=1500"), e.getMessage());
    }

    /**
     * The limit of java's value count, pinned: its filter is not called for strings (the stream writes them as
     * values of their own), so a list of strings costs one element per list, not per string. The hash-work and
     * nesting limits still hold it; java is refused by providers unless configured (boundsDecodeWork=false).
     */
    @org.junit.jupiter.api.Test
    void javaCountsEveryObjectButStrings() {
        DecodeLimits limits = DecodeLimits.builder().maxElements(100).build();
        Serializer serializer = create("java", limits);
        List<Object> strings = new ArrayList<>();
        List<Object> numbers = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            strings.add("v" + i);
            numbers.add(Long.valueOf(1_000_000L + i));
        }
        DecodeBudget forStrings = DecodeBudget.of(limits);
        assertEquals(strings, read(serializer, write(serializer, strings), List.class, forStrings));
        assertTrue(forStrings.elementsUsed() < 100, "strings counted: " + forStrings.elementsUsed());
        DecodeLimitException e = assertThrows(DecodeLimitException.class,
                () -> read(serializer, write(serializer, numbers), List.class, DecodeBudget.of(limits)));
        assertEquals(DecodeLimits.Limit.ELEMENTS, e.limit(), e.getMessage());
    }

    /** Legitimate nested data passes with the defaults and a deadline, through the budgeted method. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("all")
    void legitimateNestedDataRoundTripsWithDefaults(Serialization s) {
        Serializer serializer = create(s.name(), DecodeLimits.defaults());
        DecodeBudget budget = DecodeBudget.withTimeout(DecodeLimits.defaults(), Duration.ofMinutes(1));
        BidRequest bid = BidRequest.sample();
        assertEquals(bid, read(serializer, write(serializer, bid), BidRequest.class, budget));

        Map<String, Object> nested = new LinkedHashMap<>();
        Map<String, Object> cursor = nested;
        for (int i = 0; i < 6; i++) { // JSON-like documents: maps as values, six levels
            Map<String, Object> next = new LinkedHashMap<>();
            cursor.put("level" + i, next);
            cursor.put("bids", new ArrayList<>(List.of(BidRequest.sample())));
            cursor = next;
        }
        Set<List<String>> compositeKeys = new HashSet<>();
        for (int i = 0; i < 500; i++) {
            compositeKeys.add(new ArrayList<>(List.of("a" + i, "b" + i)));
        }
        List<Object> value = new ArrayList<>(List.of(nested, compositeKeys));
        assertEquals(value, read(serializer, write(serializer, value), Object.class, budget));
        assertFalse(budget.hashWorkUsed() < 0);
    }
}
