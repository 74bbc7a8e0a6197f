package io.kestrel.rpc.transport.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.stream.StreamLimits;
import org.junit.jupiter.api.Test;

/** A stream receiver's credit accounting: what it grants and when, and that a peer cannot exceed it. */
class ReceiveCreditTest {

    @Test
    void automaticGrantsTheWindowThenHalfAWindowAtATime() {
        ReceiveCredit c = new ReceiveCredit(64, 0);
        int window = c.window();
        assertEquals(window, c.openAutomatic());
        for (int i = 0; i < window; i++) {
            assertTrue(c.receive(), "message " + i + " is within the window");
        }
        assertFalse(c.receive(), "one message beyond the window has no credit");

        ReceiveCredit d = new ReceiveCredit(64, 0);
        d.openAutomatic();
        int half = Math.max(1, window / 2);
        int granted = 0;
        for (int i = 0; i < window; i++) {
            assertTrue(d.receive());
            boolean manual = d.delivering();
            assertFalse(manual);
            int grant = d.delivered(manual, 20);
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
    void smallMessagesWidenTheWindowTowardItsBytesAtMostDoublingPerGrant() {
        ReceiveCredit c = new ReceiveCredit(64, 1 << 20);
        assertEquals(64, c.openAutomatic());
        int inFlight = 64;
        int grants = 0;
        int lastWindow = 64;
        while (c.window() < StreamLimits.MAX_GROWN_WINDOW) {
            assertTrue(c.receive(), "within the credit granted");
            inFlight--;
            int grant = c.delivered(c.delivering(), 20);
            if (grant > 0) {
                grants++;
                assertTrue(c.window() <= 2 * lastWindow, "at most doubled: " + lastWindow + " -> " + c.window());
                assertTrue(c.window() > lastWindow, "20-byte messages: 1 MiB fits far more than " + lastWindow);
                lastWindow = c.window();
                c.granting(grant);
                inFlight += grant;
                assertEquals(c.window(), inFlight, "granted up to the wider window, in flight, none delivered pending");
            }
        }
        assertEquals(StreamLimits.MAX_GROWN_WINDOW, c.window(), "capped");
        assertEquals(7, grants, "64 doubled seven times is 8192");
        for (int i = 0; i < inFlight; i++) {
            assertTrue(c.receive());
        }
        assertFalse(c.receive(), "nothing beyond the widened window");
    }

    @Test
    void largeMessagesKeepTheWindowAndTheBytesSettingOfZeroTurnsWideningOff() {
        ReceiveCredit large = new ReceiveCredit(64, 1 << 20);
        ReceiveCredit off = new ReceiveCredit(64, 0);
        large.openAutomatic();
        off.openAutomatic();
        for (int i = 0; i < 640; i++) {
            assertTrue(large.receive());
            assertTrue(off.receive());
            int g = large.delivered(large.delivering(), 64 * 1024); // 64 messages of 64 KiB are 4 MiB: no wider
            int h = off.delivered(off.delivering(), 20);
            if (g > 0) {
                assertEquals(32, g);
                large.granting(g);
            }
            if (h > 0) {
                assertEquals(32, h);
                off.granting(h);
            }
        }
        assertEquals(64, large.window());
        assertEquals(64, off.window());
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
            grants[i] = c.delivered(true, 20);
        }
        assertEquals(0, grants[0] + grants[1], "granted while some were undelivered: not in steps that small");
        assertEquals(1, grants[2], "all delivered: the fourth requested message is granted");
        c.granting(grants[2]);
        assertTrue(c.receive());
        assertFalse(c.receive(), "nothing granted beyond what was requested");
        assertEquals(c.window() - 1, c.request(Long.MAX_VALUE), "topped up to the window (one granted, undelivered)");
    }

    @Test
    void manualCannotStartOnceTheWindowWasGranted() {
        ReceiveCredit c = new ReceiveCredit();
        c.openAutomatic();
        assertFalse(c.disableAutoRequest());
        assertEquals(-1, new ReceiveCredit().openManual(), "automatic: the caller grants the window");
    }
}
