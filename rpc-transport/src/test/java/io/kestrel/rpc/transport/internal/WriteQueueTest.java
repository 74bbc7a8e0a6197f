package io.kestrel.rpc.transport.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.testing.Await;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.TransportCounters;
import io.kestrel.rpc.transport.internal.stream.StreamFrames;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.ServerMethod;
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
 * {@link WriteQueue} and {@link WriteCoalescer} over a real loopback socket: each message a 4-byte number (or a real
 * frame), the receiving side keeps the bytes in the order they arrived, so what overtook what is counted, not timed.
 */
class WriteQueueTest {
    private static final int URGENT = -1;
    private static final int BACKLOG = 1000;

    private final ByteBuf received = Unpooled.buffer();
    /** When set, the server answers the first bytes it reads with one byte of its own (once). */
    private final java.util.concurrent.atomic.AtomicBoolean replyOnce = new java.util.concurrent.atomic.AtomicBoolean();
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
                        ch.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                synchronized (received) {
                                    received.writeBytes(msg);
                                }
                                if (replyOnce.compareAndSet(true, false)) {
                                    ctx.writeAndFlush(Unpooled.wrappedBuffer(new byte[] {1}));
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
        received.release();
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
                return received.readableBytes() >= 4 * count;
            }
        });
        List<Integer> numbers = new ArrayList<>();
        synchronized (received) {
            for (int at = 0; at + 4 <= received.writerIndex(); at += 4) {
                numbers.add(received.getInt(at));
            }
        }
        return numbers;
    }

    /** The ops byte (status) of each frame received, in order, once {@code count} frames came. */
    private List<Byte> awaitFrames(int count) throws InterruptedException {
        List<Byte> ops = new ArrayList<>();
        Await.until(count + " frames received", () -> {
            ops.clear();
            synchronized (received) {
                int at = 0;
                while (at + Wire.COMPACT_HEADER_BYTES <= received.writerIndex()) {
                    boolean compact = (received.getByte(at + 3) & Wire.FLAG_COMPACT) != 0;
                    ops.add(compact ? StreamFrames.DATA : received.getByte(at + 5));
                    at += compact ? Wire.COMPACT_HEADER_BYTES + received.getInt(at + Wire.COMPACT_LENGTH_OFFSET)
                            : Wire.HEADER_BYTES + received.getInt(at + Wire.LENGTH_OFFSET);
                }
            }
            return ops.size() >= count;
        });
        return ops;
    }

    @Test
    void aUnaryAnswerIsNotQueuedBehindStreamData() throws InterruptedException {
        ResponseWriter out = new ResponseWriter(client, new TransportCounters(), 1 << 20);
        ServerMethod greet = new TestSupport.GreeterDispatcher().resolve(MethodRef.descriptor(TestSupport.KEY,
                TestSupport.GREET));
        out.holdFlush(); // a provider thread's backlog of a stream's messages, then a unary call's answer
        for (int i = 0; i < BACKLOG; i++) {
            out.streamFrame(StreamFrames.data(client.alloc(), false, TestSupport.UTF8, 5, "message " + i));
        }
        out.streamCredit(StreamFrames.window(client.alloc(), false, TestSupport.UTF8.id(), 6, 32));
        out.value(new Frame(Wire.FLAG_REQUEST, TestSupport.UTF8.id(), (byte) 0, 7, 0, null), greet, TestSupport.UTF8,
                "hello");
        out.releaseFlush();

        List<Byte> ops = awaitFrames(BACKLOG + 2);
        assertEquals(BACKLOG + 2, ops.size());
        assertEquals(StreamFrames.WINDOW, (byte) ops.get(0), "the credit frame first: DATA frames before it: " + ops);
        assertEquals(Status.OK.code(), (byte) ops.get(1), "the unary answer second, behind no DATA frame");
        assertTrue(ops.subList(2, ops.size()).stream().allMatch(o -> o == StreamFrames.DATA), "then the data");
    }

    @Test
    void aRefusalIsNotQueuedBehindStreamDataButAStreamsErrorEndIs() throws InterruptedException {
        ResponseWriter out = new ResponseWriter(client, new TransportCounters(), 1 << 20);
        out.holdFlush(); // a stream's backlog, then a refused call and the stream's own error end
        for (int i = 0; i < BACKLOG; i++) {
            out.streamFrame(StreamFrames.data(client.alloc(), false, TestSupport.UTF8, 5, "message " + i));
        }
        byte twoWay = (byte) (Wire.FLAG_REQUEST | Wire.FLAG_TWO_WAY);
        out.error(new Frame(twoWay, TestSupport.UTF8.id(), (byte) 0, 7, 0, null), Status.SERVER_BUSY, "busy");
        out.streamError(new Frame(twoWay, TestSupport.UTF8.id(), (byte) 0, 5, 0, null), Status.SERVER_TIMEOUT,
                "the stream's deadline passed");
        out.releaseFlush();

        List<Byte> ops = awaitFrames(BACKLOG + 2);
        assertEquals(BACKLOG + 2, ops.size());
        assertEquals(Status.SERVER_BUSY.code(), (byte) ops.get(0), "the refusal first, behind no DATA frame: " + ops);
        assertTrue(ops.subList(1, BACKLOG + 1).stream().allMatch(o -> o == StreamFrames.DATA), "then the data");
        assertEquals(Status.SERVER_TIMEOUT.code(), (byte) ops.get(BACKLOG + 1), "the stream's end after its data");
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

    /**
     * A backlog of stream data does not keep the connection from reading: after each batch of 256 the queue runs
     * again only after the event loop has polled its socket. The peer answers the first bytes it gets with one byte,
     * and that byte is read while most of the backlog is still queued (before, the queue's runs followed each other
     * in one pass of the loop's tasks and the byte was read after the last of them).
     */
    @Test
    void theConnectionReadsBetweenBatchesOfABacklog() throws InterruptedException {
        int backlog = 50_000;
        AtomicInteger written = new AtomicInteger();
        AtomicInteger writtenWhenRead = new AtomicInteger(-1);
        client.pipeline().addLast(new SimpleChannelInboundHandler<ByteBuf>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                writtenWhenRead.compareAndSet(-1, written.get());
            }
        });
        WriteQueue<ByteBuf> queue = new WriteQueue<>(client, buf -> {
            written.incrementAndGet();
            client.write(buf, client.voidPromise());
        });
        replyOnce.set(true);
        queue.holdFlush();
        for (int i = 0; i < backlog; i++) {
            queue.enqueue(number(i));
        }
        queue.releaseFlush();
        Await.until("the peer's byte read", () -> writtenWhenRead.get() >= 0);
        assertTrue(writtenWhenRead.get() < backlog / 2, "written before the peer's byte was read: "
                + writtenWhenRead.get() + " of " + backlog);
        List<Integer> numbers = awaitReceived(backlog);
        for (int i = 0; i < backlog; i++) {
            assertEquals(i, numbers.get(i), "in order");
        }
    }

    @Test
    void aRunWaitingForTheReadsIsNotLostWhenTheEventLoopStops() throws InterruptedException {
        List<ByteBuf> all = new ArrayList<>();
        WriteQueue<ByteBuf> queue = new WriteQueue<>(client, buf -> {
            if (all.get(255) == buf) { // the last of the first batch: the loop shuts down before the next run
                @SuppressWarnings("deprecation")
                Runnable stop = ((SingleThreadEventExecutor) client.eventLoop())::shutdown;
                client.eventLoop().execute(stop);
            }
            client.write(buf, client.voidPromise());
        });
        queue.holdFlush();
        for (int i = 0; i < BACKLOG; i++) {
            ByteBuf b = number(i);
            all.add(b);
            queue.enqueue(b);
        }
        queue.releaseFlush();
        assertTrue(clientGroup.awaitTermination(10, TimeUnit.SECONDS), "the client's event loop stopped");
        for (int i = 0; i < BACKLOG; i++) {
            assertEquals(0, all.get(i).refCnt(), "message " + i + " released (written, failed or dropped)");
        }
    }
}
