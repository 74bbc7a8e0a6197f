package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriteQueue} and {@link WriteCoalescer} over a real loopback socket: each message a 4-byte number, the
 * receiving side records them in the order they arrived, so what overtook what is counted, not timed.
 */
class WriteQueueTest {
    private static final int URGENT = -1;
    private static final int BACKLOG = 1000;

    private final List<Integer> received = new ArrayList<>();
    private EventLoopGroup serverGroup;
    private EventLoopGroup clientGroup;
    private Channel client;

    @BeforeEach
    void connect() throws InterruptedException {
        serverGroup = new NioEventLoopGroup(1);
        clientGroup = new NioEventLoopGroup(1);
        Channel server = new ServerBootstrap().group(serverGroup).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FixedLengthFrameDecoder(4), new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                synchronized (received) {
                                    received.add(msg.getInt(msg.readerIndex()));
                                }
                            }
                        });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        client = new Bootstrap().group(clientGroup).channel(NioSocketChannel.class)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                    }
                }).connect(server.localAddress()).sync().channel();
    }

    @AfterEach
    void close() {
        clientGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
        serverGroup.shutdownGracefully(0, 0, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static ByteBuf number(int n) {
        return Unpooled.buffer(4).writeInt(n);
    }

    private WriteQueue<ByteBuf> coalescing(Consumer<ByteBuf> beforeEach) {
        WriteCoalescer coalescer = new WriteCoalescer(client);
        return new WriteQueue<>(client, buf -> {
            beforeEach.accept(buf);
            coalescer.write(buf);
        }, coalescer::writeGathered);
    }

    private List<Integer> awaitReceived(int count) throws InterruptedException {
        Await.until(count + " numbers received", () -> {
            synchronized (received) {
                return received.size() >= count;
            }
        });
        synchronized (received) {
            return new ArrayList<>(received);
        }
    }

    @Test
    void anUrgentMessageIsWrittenBeforeTheBacklogQueuedAheadOfIt() throws InterruptedException {
        WriteQueue<ByteBuf> queue = coalescing(buf -> { });
        queue.holdFlush(); // everything below is queued before the event loop writes any of it
        for (int i = 0; i < BACKLOG; i++) {
            queue.enqueue(number(i));
        }
        queue.enqueueUrgent(number(URGENT));
        queue.releaseFlush();

        List<Integer> got = awaitReceived(BACKLOG + 1);
        assertEquals(URGENT, got.get(0), "numbers written before the urgent one: " + got.indexOf(URGENT));
        for (int i = 0; i < BACKLOG; i++) {
            assertEquals(i, got.get(i + 1), "the ordinary messages keep their order");
        }
    }

    @Test
    void anUrgentMessageQueuedDuringARunWaitsForNoMoreOfTheBacklog() throws InterruptedException {
        AtomicInteger written = new AtomicInteger();
        WriteQueue<ByteBuf>[] queue = new WriteQueue[1];
        queue[0] = coalescing(buf -> {
            if (written.getAndIncrement() == 10) { // a unary answer arriving while the run writes stream data
                queue[0].enqueueUrgent(number(URGENT));
            }
        });
        queue[0].holdFlush();
        for (int i = 0; i < BACKLOG; i++) {
            queue[0].enqueue(number(i));
        }
        queue[0].releaseFlush();

        List<Integer> got = awaitReceived(BACKLOG + 1);
        assertEquals(11, got.indexOf(URGENT), "written right after the message under way (0-10), ahead of 989 more");
    }

    @Test
    void anUrgentMessageQueuedBeforeAnOrdinaryOneIsWrittenFirst() throws InterruptedException {
        WriteQueue<ByteBuf> queue = coalescing(buf -> { });
        queue.holdFlush();
        for (int i = 0; i < BACKLOG; i++) {
            queue.enqueueUrgent(number(-i - 2)); // a call ...
            queue.enqueue(number(i)); // ... and its stream's first message
        }
        queue.releaseFlush();

        List<Integer> got = awaitReceived(2 * BACKLOG);
        for (int i = 0; i < BACKLOG; i++) {
            assertTrue(got.indexOf(-i - 2) < got.indexOf(i), "call " + i + " before its data: " + got);
        }
    }

    @Test
    void frameCountsAndBytesOnTheWireAreThoseQueued() throws InterruptedException {
        WriteQueue<ByteBuf> queue = coalescing(buf -> { });
        ByteBuf large = Unpooled.buffer(WriteCoalescer.SMALL_FRAME_BYTES + 4);
        for (int i = 0; i < (WriteCoalescer.SMALL_FRAME_BYTES + 4) / 4; i++) {
            large.writeInt(1_000_000 + i);
        }
        queue.holdFlush();
        for (int i = 0; i < 5000; i++) { // several gathering buffers' worth, with a large frame between
            queue.enqueue(i == 2500 ? large : number(i));
        }
        queue.releaseFlush();

        List<Integer> got = awaitReceived(4999 + (WriteCoalescer.SMALL_FRAME_BYTES + 4) / 4);
        assertEquals(4999 + (WriteCoalescer.SMALL_FRAME_BYTES + 4) / 4, got.size());
        assertEquals(2499, got.get(2499));
        assertEquals(1_000_000, got.get(2500), "the large frame in its place");
        assertEquals(4999, got.get(got.size() - 1));
        assertEquals(0, large.refCnt(), "written and released");
    }

    @Test
    void whatIsQueuedWhenTheEventLoopStopsMidRunIsReleased() throws InterruptedException {
        List<ByteBuf> all = new ArrayList<>();
        WriteQueue<ByteBuf>[] queue = new WriteQueue[1];
        queue[0] = new WriteQueue<>(client, buf -> {
            if (all.get(0) == buf) { // the loop shuts down under the first write: the run cannot queue itself again
                @SuppressWarnings("deprecation")
                Runnable stop = ((SingleThreadEventExecutor) client.eventLoop())::shutdown;
                stop.run();
            }
            client.write(buf, client.voidPromise());
        });
        queue[0].holdFlush();
        for (int i = 0; i < BACKLOG; i++) {
            ByteBuf b = number(i);
            all.add(b);
            queue[0].enqueue(b);
        }
        queue[0].releaseFlush();
        assertTrue(clientGroup.awaitTermination(10, TimeUnit.SECONDS), "the client's event loop stopped");
        ByteBuf late = number(BACKLOG);
        queue[0].enqueue(late); // after it stopped: released at once by this thread
        assertEquals(0, late.refCnt(), "a message queued after the event loop stopped is released");
        for (int i = 0; i < BACKLOG; i++) {
            assertEquals(0, all.get(i).refCnt(), "message " + i + " released (written, failed or dropped)");
        }
    }
}
