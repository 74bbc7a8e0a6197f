package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.transport.internal.ClientCodec;
import io.kestrel.rpc.transport.internal.FrameTimeoutException;
import io.kestrel.rpc.transport.internal.Handshake;
import io.kestrel.rpc.transport.internal.HeartbeatHandler;
import io.kestrel.rpc.transport.internal.PendingCall;
import io.kestrel.rpc.transport.internal.WriteCoalescer;
import io.kestrel.rpc.transport.internal.WriteQueue;
import io.kestrel.rpc.transport.internal.tls.TlsFailures;
import io.kestrel.rpc.transport.internal.tls.TlsMismatchException;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The life of one {@link Connection}'s channels: connect attempts, reconnect with exponential backoff
 * (100 ms doubling to 5 s), and the handler last in each channel's pipeline that turns its events into state
 * changes of the connection. Logs as the connection.
 */
final class ConnectionLifecycle {
    private static final Logger log = LoggerFactory.getLogger(Connection.class);
    private static final long MAX_BACKOFF_MILLIS = 5000;

    private final Connection conn;
    private final Bootstrap bootstrap;
    private int failedAttempts;
    /** A TLS failure was logged since the connection was last ready (later ones go to debug). */
    private volatile boolean tlsWarned;

    ConnectionLifecycle(Connection conn) {
        this.conn = conn;
        this.bootstrap = conn.transport.bootstrap(conn.options(), conn.host, conn.port, conn.pending, Handler::new,
                conn.facts::wanted);
    }

    void connect() {
        bootstrap.connect(conn.host, conn.port).addListener((ChannelFuture done) -> {
            if (!done.isSuccess()) {
                onConnectFailed(done.cause());
            }
        });
    }

    private void onConnectFailed(Throwable cause) {
        conn.lastError = String.valueOf(cause == null ? "unknown" : cause.getMessage());
        failedAttempts++;
        if (failedAttempts == 1) {
            log.warn("Cannot connect to provider {}: {}; retrying in the background", conn.address(), conn.lastError);
        } else {
            log.debug("Reconnect {} to {} failed: {}", failedAttempts, conn.address(), conn.lastError);
        }
        conn.firstAttemptDone.countDown();
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        if (conn.state() != ConnectionState.CONNECTING) {
            return;
        }
        long delay = Math.min(MAX_BACKOFF_MILLIS, 100L << Math.min(failedAttempts, 6));
        try {
            conn.transport.group.next().schedule(() -> {
                if (conn.state() == ConnectionState.CONNECTING) {
                    connect();
                }
            }, delay, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            log.debug("Not reconnecting to {}: event loop shut down", conn.address());
        }
    }

    /** Last in the pipeline: turns channel events into state changes. Event loop only. */
    private final class Handler extends ChannelInboundHandlerAdapter {
        private boolean tlsErrorSet;

        /**
         * TCP is up and {@link HeartbeatHandler} has sent the handshake heartbeat; its answer cannot
         * be read before this returns, so the state is set in time.
         */
        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            Channel ch = ctx.channel();
            // a call queued just as the channel closed reaches the writer after channelInactive drained the queue,
            // when the pipeline may already be gone (nothing would release its bytes or fail it): drop it here
            // stream frames gathered into few buffers (WriteCoalescer); a call, encoded in the pipeline, after them
            WriteCoalescer coalescer = new WriteCoalescer(ch);
            conn.writes = new WriteQueue<>(ch, r -> {
                if (!ch.isActive()) {
                    dropUnsent(r, conn.address());
                } else if (r instanceof ByteBuf frame) {
                    coalescer.write(frame);
                } else {
                    coalescer.writeGathered();
                    ch.write(r, ch.voidPromise());
                }
            }, coalescer::writeGathered);
            conn.channel = ch;
            if (!conn.moveTo(ConnectionState.HANDSHAKING)) {
                ch.close(); // closed or retired while connecting
            } else {
                ProviderFacts.askMissing(ch); // wanted after the handshake heartbeat was written, before the channel was set
            }
            super.channelActive(ctx);
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
            String address = conn.address();
            if (evt instanceof Handshake.Facts facts) {
                if (ctx.channel() == conn.channel) {
                    conn.facts.answered(facts);
                }
            } else if (evt == HeartbeatHandler.Event.PEER_ANSWERED) {
                if (ctx.channel() == conn.channel && conn.moveTo(ConnectionState.READY)) {
                    if (failedAttempts > 0) {
                        log.info("Reconnected to provider {} after {} failed attempts", address, failedAttempts);
                    } else {
                        log.debug("Connected to provider {}", address);
                    }
                    failedAttempts = 0;
                    tlsWarned = false;
                    conn.firstAttemptDone.countDown();
                }
            } else if (evt == HeartbeatHandler.Event.PEER_SILENT) {
                conn.lastError = "heartbeat timeout";
            } else if (evt instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
                tlsFailed(TlsFailures.explainClientSide(done.cause(), address));
            } else if (evt == ClientCodec.GOING_AWAY) {
                conn.moveTo(ConnectionState.DRAINING);
                log.info("Provider {} is shutting down; routing new calls elsewhere ({} still pending here)", address,
                        conn.pending.size());
            } else {
                super.userEventTriggered(ctx, evt);
            }
        }

        /** A queued call or stream frame that will never be written: its bytes are released and a call fails. */
        private static void dropUnsent(Object queued, String address) {
            if (!(queued instanceof PendingCall call)) {
                ReferenceCountUtil.release(queued); // a stream frame: its call fails with the connection
                return;
            }
            Unsent.fail(call, new ConnectionUnavailableException("connection to " + address + " closed before "
                    + call.method().displayName() + " was sent; the call did not run"));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            String address = conn.address();
            WriteQueue<Object> queue = conn.writes;
            if (ctx.channel() == conn.channel) {
                conn.channel = null;
            }
            conn.firstAttemptDone.countDown(); // closed before the handshake: the first attempt is over
            if (queue != null) {
                queue.drainTo(queued -> dropUnsent(queued, address));
            }
            conn.pending.failAll("the connection to " + address + " closed (" + conn.lastError + ")");
            if (conn.state() == ConnectionState.RETIRING) {
                conn.close();
            } else if (conn.moveTo(ConnectionState.CONNECTING)) {
                log.warn("Connection to provider {} closed; reconnecting", address);
                scheduleReconnect();
            }
            super.channelInactive(ctx);
        }

        /** The first TLS problem of a connection attempt is its error: what failed calls quote. */
        private void tlsFailed(String message) {
            if (tlsErrorSet) {
                return; // what follows the first error (the close, the engine's echo) says less
            }
            tlsErrorSet = true;
            conn.lastError = message;
            if (!tlsWarned) {
                tlsWarned = true;
                log.warn("Cannot use the connection to provider {}: {}", conn.address(), message);
            } else {
                log.debug("Connection to provider {} failed again: {}", conn.address(), message);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            String address = conn.address();
            if (cause instanceof TlsMismatchException) {
                tlsFailed(cause.getMessage());
            } else if (TlsFailures.isTls(cause)) {
                tlsFailed(TlsFailures.explainClientSide(cause, address));
            } else if (cause instanceof FrameTimeoutException) {
                conn.lastError = cause.getMessage();
                log.warn("Closing connection to provider {}: {}", address, conn.lastError);
            } else if (cause instanceof DecoderException) {
                conn.lastError = "bad frame: "
                        + (cause.getCause() != null ? cause.getCause().getMessage() : cause.getMessage());
                log.warn("Closing connection to provider {}: {}", address, conn.lastError);
            } else {
                conn.lastError = cause.toString();
                log.debug("Connection to provider {} failed: {}", address, conn.lastError);
            }
            ctx.close();
        }
    }
}
