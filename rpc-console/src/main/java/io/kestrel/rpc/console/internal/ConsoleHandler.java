package io.kestrel.rpc.console.internal;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies each aggregated request off the event loop into a {@link ConsoleRequest} and answers it on the
 * console's worker (registry reads and invocations block); a full worker queue is answered 503 at once.
 * Shared by the console's connections: it keeps no per-connection state.
 */
@io.netty.channel.ChannelHandler.Sharable
final class ConsoleHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final Logger log = LoggerFactory.getLogger(ConsoleHandler.class);

    private final ConsoleRouter router;
    private final Executor worker;

    ConsoleHandler(ConsoleRouter router, Executor worker) {
        this.router = router;
        this.worker = worker;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
        ConsoleConnection.requestArrived(ctx.channel());
        boolean keepAlive = HttpUtil.isKeepAlive(req);
        if (!req.decoderResult().isSuccess()) {
            write(ctx, HttpAnswer.error(400, "malformed HTTP request").toResponse(), false);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(req.uri());
        Map<String, String> query = new HashMap<>();
        uri.parameters().forEach((k, v) -> query.put(k, v.isEmpty() ? "" : v.get(0)));
        ConsoleRequest request = new ConsoleRequest(req.method().name(), uri.path(), query,
                req.headers().get(HttpHeaderNames.HOST), req.headers().get(HttpHeaderNames.ORIGIN),
                req.headers().get(HttpHeaderNames.AUTHORIZATION), req.headers().get(HttpHeaderNames.CONTENT_TYPE),
                req.content().toString(StandardCharsets.UTF_8));
        try {
            worker.execute(() -> write(ctx, router.route(request).toResponse(), keepAlive));
        } catch (RejectedExecutionException e) {
            write(ctx, HttpAnswer.error(503, "the console is busy with other requests; try again").toResponse(), false);
        }
    }

    private static void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        log.debug("Console connection from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
