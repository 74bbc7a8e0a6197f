package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import io.kestrel.rpc.transport.internal.tls.CredentialSender;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A consumer's token bound to the provider it is meant for ({@code -Dkestrel.rpc.consumer.bindToken=true}): the
 * credential frame the consumer's own {@link CredentialSender} writes is captured by a fake provider (a raw
 * socket) and replayed, with a call, to a real provider that admits only the token's owner. Bound, the replay
 * is refused; sent as it is (the mutation check: binding switched off), the same replay is admitted.
 */
@Timeout(60)
class BoundTokenTest {
    private static final int STATUS_OK = 20;
    private static final int STATUS_UNAUTHENTICATED = 41;
    private static final String TOKEN = "alice.s3cret-of-alice";
    private static final NioEventLoopGroup GROUP = new NioEventLoopGroup(1);
    private static RpcRuntime provider;

    /** Tokens {@code <id>.<secret>}; supports bound proofs. */
    static final class Tokens implements Authenticator {
        private static final Map<String, String> SECRETS = Map.of("alice", "s3cret-of-alice");

        @Override
        public String name() {
            return "bound-tokens";
        }

        @Override
        public CallerIdentity authenticate(String token, CallerIdentity certificate) {
            int dot = token.indexOf('.');
            if (dot < 0 || !token.substring(dot + 1).equals(SECRETS.get(token.substring(0, dot)))) {
                throw new UnauthenticatedException("unknown token");
            }
            return CallerIdentity.of(token.substring(0, dot), Set.of("reader"));
        }

        @Override
        public String secretOf(String id) {
            return SECRETS.get(id);
        }
    }

    @BeforeAll
    static void start() {
        provider = RpcRuntime.builder().protocol(TestRuntimes.loopback().authenticator(new Tokens()).build()).build();
        provider.export(ServiceConfig.builder(EchoService.class, new EchoServiceImpl()).serialization("kryo")
                .allowPrincipal("alice").build());
    }

    @AfterAll
    static void stop() {
        provider.close();
        GROUP.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    @Test
    void aBoundTokenAuthenticatesAtTheProviderItWasMadeFor() throws Exception {
        assertEquals(STATUS_OK, callWith(provider.boundPort(), true));
    }

    @Test
    void aBoundTokenCapturedByAnotherProviderDoesNotAuthenticateHere() throws Exception {
        byte[] captured = capture(true);
        assertTrue(!new String(captured, java.nio.charset.StandardCharsets.UTF_8).contains("s3cret"),
                "the secret travelled to the fake provider");
        assertEquals(STATUS_UNAUTHENTICATED, replay(captured));
    }

    /** The mutation check: the token sent as it is (not bound) is collected and replayed with success. */
    @Test
    void withoutBindingTheCapturedTokenAuthenticatesHere() throws Exception {
        assertEquals(STATUS_OK, replay(capture(false)));
    }

    /** The credential frame the consumer's handler writes to a fake provider on 127.0.0.1. */
    private static byte[] capture(boolean bind) throws Exception {
        try (ServerSocket fake = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            fake.setSoTimeout(10_000);
            Channel ch = connect(fake.getLocalPort(), bind, new CompletableFuture<>());
            try (Socket s = fake.accept()) {
                s.setSoTimeout(10_000);
                DataInputStream in = new DataInputStream(s.getInputStream());
                byte[] header = new byte[18];
                in.readFully(header);
                byte[] frame = new byte[18 + ByteBuffer.wrap(header).getInt(14)];
                System.arraycopy(header, 0, frame, 0, 18);
                in.readFully(frame, 18, frame.length - 18);
                return frame;
            } finally {
                ch.close().awaitUninterruptibly();
            }
        }
    }

    /** Writes {@code credential} then a call to the provider, as a raw client; the call's answer status. */
    private static int replay(byte[] credential) throws Exception {
        try (RawClient client = new RawClient(provider.boundPort())) {
            client.writeRaw(credential);
            client.writeRaw(new PortAttacker.Native().echo(1, "hi", true));
            return client.read().status();
        }
    }

    /** A connection with the consumer's credential handler, then a call; the call's answer status. */
    private static int callWith(int port, boolean bind) throws Exception {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        Channel ch = connect(port, bind, status);
        try {
            ch.writeAndFlush(Unpooled.wrappedBuffer(new PortAttacker.Native().echo(1, "hi", true)));
            return status.get(10, TimeUnit.SECONDS);
        } finally {
            ch.close().awaitUninterruptibly();
        }
    }

    private static Channel connect(int port, boolean bind, CompletableFuture<Integer> status) throws Exception {
        return new Bootstrap().group(GROUP).channel(NioSocketChannel.class).handler(new ChannelInitializer<SocketChannel>() {
            @Override
            protected void initChannel(SocketChannel ch) {
                ch.pipeline().addLast(new CredentialSender(TOKEN, bind), new ChannelInboundHandlerAdapter() {
                    private final ByteBuf read = Unpooled.buffer();

                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.flush(); // the credential (a consumer flushes it with its handshake heartbeat)
                        ctx.fireChannelActive();
                    }

                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf in = (ByteBuf) msg;
                        read.writeBytes(in);
                        in.release();
                        while (read.readableBytes() >= 18 && read.readableBytes() >= 18 + read.getInt(read.readerIndex() + 14)) {
                            int flags = read.getByte(read.readerIndex() + 3);
                            int s = read.getByte(read.readerIndex() + 5);
                            read.skipBytes(18 + read.getInt(read.readerIndex() + 14));
                            if ((flags & 0x04) == 0) { // not an event: the call's answer
                                status.complete(s);
                            }
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        read.release();
                    }
                });
            }
        }).connect("127.0.0.1", port).sync().channel();
    }
}
