package io.kestrel.rpc.transport.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A stream receiver's credit accounting: what it grants and when, and that a peer cannot exceed it. */
class ReceiveCreditTest {

    @Test
    void automaticGrantsTheWindowThenHalfAWindowAtATime() {
        ReceiveCredit c = new ReceiveCredit();
        int window = c.window;
        assertEquals(window, c.openAutomatic());
        for (int i = 0; i < window; i++) {
            assertTrue(c.receive(), "message " + i + " is within the window");
        }
        assertFalse(c.receive(), "one message beyond the window has no credit");

        ReceiveCredit d = new ReceiveCredit();
        d.openAutomatic();
        int half = Math.max(1, window / 2);
        int granted = 0;
        for (int i = 0; i < window; i++) {
            assertTrue(d.receive());
            boolean manual = d.delivering();
            assertFalse(manual);
            int grant = d.delivered(manual);
            if (grant > 0) {
                assertEquals(half, grant, "granted back half the window at a time");
                d.granting(grant);
                granted += grant;
            }
        }
        assertEquals(window / half * half, granted);
        assertTrue(d.receive(), "granted back: the peer may send again");
    }

    @Test
    void manualGrantsWhatWasRequestedWithinTheWindow() {
        ReceiveCredit c = new ReceiveCredit();
        assertTrue(c.disableAutoRequest());
        assertEquals(0, c.request(3), "not open yet: nothing granted");
        assertEquals(3, c.openManual(), "opened: what was requested");
        c.granting(3);
        assertEquals(0, c.request(1), "less than half a window more: waits for a larger step");
        int[] grants = new int[3];
        for (int i = 0; i < 3; i++) {
            assertTrue(c.receive());
            assertTrue(c.delivering());
            grants[i] = c.delivered(true);
        }
        assertEquals(0, grants[0] + grants[1], "granted while some were undelivered: not in steps that small");
        assertEquals(1, grants[2], "all delivered: the fourth requested message is granted");
        c.granting(grants[2]);
        assertTrue(c.receive());
        assertFalse(c.receive(), "nothing granted beyond what was requested");
        assertEquals(c.window - 1, c.request(Long.MAX_VALUE), "topped up to the window (one granted, undelivered)");
    }

    @Test
    void manualCannotStartOnceTheWindowWasGranted() {
        ReceiveCredit c = new ReceiveCredit();
        c.openAutomatic();
        assertFalse(c.disableAutoRequest());
        assertEquals(-1, new ReceiveCredit().openManual(), "automatic: the caller grants the window");
    }
}
