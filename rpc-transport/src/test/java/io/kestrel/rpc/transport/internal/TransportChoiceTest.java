package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What each value of {@code -Dkestrel.rpc.transport} chooses, where the native epoll library loads (this module's tests). */
class TransportChoiceTest {
    @Test
    void autoAndEpollChooseEpollNioKeepsNioAndAWrongValueIsReadAsAuto() {
        assertTrue(EventLoops.epoll(null), "unset is auto");
        assertTrue(EventLoops.epoll(" "), "blank is auto");
        assertTrue(EventLoops.epoll("auto"));
        assertTrue(EventLoops.epoll(" EPOLL "));
        assertFalse(EventLoops.epoll("nio"));
        assertFalse(EventLoops.epoll("NIO"));
        assertTrue(EventLoops.epoll("io_uring"), "not a choice: logged, read as auto");
    }
}
