package io.kestrel.rpc.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.transport.internal.EventLoops;
import io.kestrel.rpc.transport.internal.LoopbackGreeter;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * This module's tests have Netty's native epoll library on the class path (as a Linux deployment that adds it): the
 * provider listens and the consumer connects over epoll, and calls work. The surefire execution {@code nio-transport}
 * runs it again with {@code -Dkestrel.rpc.transport=nio}, which must keep the JDK's selector.
 */
class NativeTransportTest {
    @Test
    void providerAndConsumerUseTheNativeTransportWhenItLoadsUnlessNioIsAskedFor() throws Exception {
        boolean nio = "nio".equals(System.getProperty(EventLoops.TRANSPORT_PROPERTY));
        assertTrue(Epoll.isAvailable(), () -> "the native epoll library is on this module's test class path and this"
                + " is Linux x86_64; it did not load: " + Epoll.unavailabilityCause());
        assertEquals(nio ? "nio" : "epoll", EventLoops.transportName());
        try (LoopbackGreeter greeter = new LoopbackGreeter()) {
            Connection c = greeter.connection();
            for (int i = 0; i < 100; i++) {
                assertEquals("hello " + i, greeter.greet(c, String.valueOf(i), 5000, null).get(5, TimeUnit.SECONDS));
            }
            assertEquals(nio ? NioSocketChannel.class : EpollSocketChannel.class, c.channel.getClass());
            assertEquals(nio ? NioServerSocketChannel.class : EpollServerSocketChannel.class,
                    greeter.server.listeningChannel().getClass());
        }
    }
}
