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
        ReceiveCredit c = new ReceiveCredit(64, 0, () -> false);
        int window = c.window();
        assertEquals(window, c.openAutomatic());
        for (int i = 0; i < window; i++) {
            assertTrue(c.receive(), "message " + i + " is within the window");
        }
        assertFalse(c.receive(), "one message beyond the window has no credit");

        ReceiveCredit d = new ReceiveCredit(64, 0, () -> false);
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

    /** A peer that sends whenever it has credit, and a receiver that takes one message at a time. */
    private static final class SaturatingPeer {
        final ReceiveCredit receiver;
        int credit;
        int undelivered;
        final java.util.List<Integer> windows = new java.util.ArrayList<>();

        SaturatingPeer(ReceiveCredit receiver) {
            this.receiver = receiver;
            credit = receiver.openAutomatic();
            windows.add(receiver.window());
        }

        /** The peer sends all its credit allows, then the receiver takes one message of {@code bytes}. */
        void step(int bytes) {
            for (; credit > 0; credit--, undelivered++) {
                assertTrue(receiver.receive(), "within the credit granted");
            }
            assertEquals(0, receiver.unreceived(), "the peer used all its credit: one more would be refused");
            undelivered--;
            int before = receiver.window();
            int grant = receiver.delivered(receiver.delivering(), bytes);
            assertTrue(grant >= 0);
            if (grant > 0 || receiver.window() != before) { // a grant point (a narrowing may grant 0)
                receiver.granting(grant);
                credit += grant;
                windows.add(receiver.window());
                assertEquals(receiver.window(), credit + undelivered, "the peer may have exactly the window out");
            }
        }
    }

    @Test
    void smallMessagesWidenTheWindowTowardItsBytesAtMostDoublingPerGrant() {
        SaturatingPeer p = new SaturatingPeer(new ReceiveCredit(64, 1 << 20, () -> false));
        for (int i = 0; i < 20_000; i++) {
            p.step(20);
        }
        assertEquals(java.util.List.of(64, 128, 256, 512, 1024, 2048, 4096, 8192), p.windows.subList(0, 8),
                "doubled at each grant, up to the widest");
        assertEquals(StreamLimits.MAX_GROWN_WINDOW, p.receiver.window());
    }

    @Test
    void aPeerThatDoesNotUseItsWindowDoesNotWidenIt() {
        ReceiveCredit c = new ReceiveCredit(64, 1 << 20, () -> false);
        c.openAutomatic();
        for (int i = 0; i < 10_000; i++) { // a ping-pong: one message out at a time
            assertTrue(c.receive());
            int grant = c.delivered(c.delivering(), 20);
            if (grant > 0) {
                assertEquals(32, grant);
                c.granting(grant);
            }
        }
        assertEquals(64, c.window());
    }

    @Test
    void aWidenedWindowNarrowsBackWhileUnaryCallsWaitAndTheCreditFollowsIt() {
        java.util.concurrent.atomic.AtomicBoolean waiting = new java.util.concurrent.atomic.AtomicBoolean();
        SaturatingPeer p = new SaturatingPeer(new ReceiveCredit(64, 1 << 20, waiting::get));
        for (int i = 0; i < 20_000; i++) {
            p.step(20);
        }
        assertEquals(StreamLimits.MAX_GROWN_WINDOW, p.receiver.window());
        waiting.set(true); // a unary call waits from here on
        int from = p.windows.size();
        for (int i = 0; i < 40_000; i++) {
            p.step(20);
        }
        java.util.List<Integer> narrowing = p.windows.subList(from - 1, p.windows.size());
        assertEquals(java.util.List.of(8192, 4096, 2048, 1024, 512, 256, 128, 64), narrowing.subList(0, 8),
                "halved at each grant: " + narrowing);
        assertEquals(64, p.receiver.window(), "back where it started");
    }

    @Test
    void largeMessagesKeepTheWindowAndTheBytesSettingOfZeroTurnsWideningOff() {
        SaturatingPeer large = new SaturatingPeer(new ReceiveCredit(64, 1 << 20, () -> false));
        SaturatingPeer off = new SaturatingPeer(new ReceiveCredit(64, 0, () -> false));
        for (int i = 0; i < 1000; i++) {
            large.step(64 * 1024); // 64 messages of 64 KiB are 4 MiB: no wider
            off.step(20);
        }
        assertEquals(64, large.receiver.window());
        assertEquals(64, off.receiver.window());
        assertEquals(1, large.windows.stream().distinct().count(), "never changed: " + large.windows);
    }

    @Test
    void manualGrantsWhatWasRequestedWithinTheWindow() {
        ReceiveCredit c = new ReceiveCredit(() -> false);
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
        ReceiveCredit c = new ReceiveCredit(() -> false);
        c.openAutomatic();
        assertFalse(c.disableAutoRequest());
        assertEquals(-1, new ReceiveCredit(() -> false).openManual(), "automatic: the caller grants the window");
    }
}
