package io.kestrel.rpc.api.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class WarnWindowsTest {
    private static final long SECOND = 1_000_000_000L;

    @Test
    void oneLinePerKeyPerIntervalAndTheNextSaysHowManyWereSkipped() {
        WarnWindows w = new WarnWindows(10 * SECOND, 100);
        assertEquals("", w.admit("a", 0));
        assertNull(w.admit("a", SECOND));
        assertNull(w.admit("a", 9 * SECOND));
        assertEquals("", w.admit("b", 2 * SECOND), "another key has its own window");
        assertEquals("; 2 more like it in the last 11 s not logged", w.admit("a", 11 * SECOND));
        assertNull(w.admit("a", 12 * SECOND));
        assertEquals("; 1 more like it in the last 10 s not logged", w.admit("a", 21 * SECOND));
        assertEquals("", w.admit("a", 40 * SECOND), "nothing skipped since the last line");
    }

    @Test
    void keysBeyondTheLimitShareOneWindowSoHostileKeysCannotGrowMemory() {
        WarnWindows w = new WarnWindows(10 * SECOND, 3);
        for (int i = 0; i < 1000; i++) {
            w.admit("key-" + i, SECOND);
        }
        assertEquals(4, w.size(), "3 keys and the shared one");
    }

    @Test
    void zeroIntervalLogsEveryOccurrence() {
        WarnWindows w = new WarnWindows(0, 10);
        assertEquals("", w.admit("a", 5));
        assertEquals("", w.admit("a", 5));
    }
}
