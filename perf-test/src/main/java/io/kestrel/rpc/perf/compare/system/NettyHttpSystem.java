package io.kestrel.rpc.perf.compare.system;

import io.kestrel.rpc.perf.server.BenchServer;
import io.kestrel.rpc.perf.support.BenchmarkServiceImpl;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * REST/JSON baseline on a plain Netty HTTP/1.1 server ({@link HttpServerCodec} +
 * {@link HttpObjectAggregator}). Requests are handled on the I/O thread, as a small Netty HTTP
 * service whose logic never blocks usually does; that is this baseline's best case.
 */
public final class NettyHttpSystem extends RestSystem {
    private static final Logger log = LoggerFactory.getLogger(NettyHttpSystem.class);

    public NettyHttpSystem(SystemSettings settings) {
        super(settings);
    }

    @Override
    public String name() {
        return "rest-netty";
    }

    @Override
    public String description() {
        return "REST/JSON (fastjson2) on a Netty HTTP/1.1 server, handled on the I/O threads; keep-alive Netty HTTP "
                + "client, bytes counted at the head of its pipeline";
    }

    @Override
    public BenchServer startServer() throws InterruptedException {
        HttpHandler handler = new HttpHandler(new RestRoutes(new BenchmarkServiceImpl()));
        return NettyGroups.serve("http-server", p -> p
                .addLast("http", new HttpServerCodec())
                .addLast("aggregate", new HttpObjectAggregator(MAX_CONTENT_BYTES))
                .addLast("rest", handler), () -> { });
    }

    /** Routes a full request to {@link RestRoutes} and writes the JSON answer. */
    @Sharable
    private static final class HttpHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
        private final RestRoutes routes;

        HttpHandler(RestRoutes routes) {
            this.routes = routes;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            RestRoutes.Reply reply = routes.reply(request.method().name(), request.uri(),
                    ByteBufUtil.getBytes(request.content()));
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                    HttpResponseStatus.valueOf(reply.status()), Unpooled.wrappedBuffer(reply.body()));
            response.headers()
                    .set(HttpHeaderNames.CONTENT_TYPE, RestRoutes.JSON_TYPE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, reply.body().length);
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            var written = ctx.writeAndFlush(response);
            if (!keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.warn("HTTP connection {} failed; closing", ctx.channel().remoteAddress(), cause);
            ctx.close();
        }
    }
}
