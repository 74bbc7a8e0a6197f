package io.kestrel.rpc.transport.internal;

import io.kestrel.rpc.api.config.TlsConfig;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.transport.internal.stream.ServerStreams;
import io.kestrel.rpc.transport.internal.tls.CallerState;
import io.kestrel.rpc.transport.internal.tls.IdentityHandler;
import io.kestrel.rpc.transport.internal.tls.ServerProtocolDetector;
import io.kestrel.rpc.transport.internal.tls.TlsContext;
import io.kestrel.rpc.transport.spi.ServerDispatcher;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.socket.SocketChannel;

/**
 * The native protocol's part of a provider connection ({@link ServerPipeline}): TLS detection first, then
 * {@link FrameDecoder} -> heartbeat (and handshake) -> caller identity -> going-away -> {@link RequestHandler},
 * answering through {@link ResponseWriter}. One per server.
 */
public final class NativeProtocol implements ServerPipeline.Protocol {
    private final ServerDispatcher dispatcher;
    private final Authenticator authenticator;
    private final TlsContext tls;
    private final TlsConfig tlsConfig;

    /** @param tls the port's TLS and its settings (both null: plaintext) */
    public NativeProtocol(ServerDispatcher dispatcher, Authenticator authenticator, TlsContext tls,
            TlsConfig tlsConfig) {
        this.dispatcher = dispatcher;
        this.authenticator = authenticator;
        this.tls = tls;
        this.tlsConfig = tlsConfig;
    }

    @Override
    public void addFirst(ChannelPipeline pipeline) {
        pipeline.addLast("detect", new ServerProtocolDetector(tls));
    }

    @Override
    public BoundedFrameDecoder frameDecoder(ServerPipeline.Guards g, ResponseQueue output) {
        return new FrameDecoder(g.payloadBytes(), g.counters(), g.budget(), g.frameTimeoutMillis(), output);
    }

    @Override
    public void addHandlers(SocketChannel ch, ServerPipeline.Guards g, ResponseQueue output) {
        ResponseWriter out = new ResponseWriter(output, ch, g.payloadBytes());
        CallerState caller = new CallerState(tls == null || tlsConfig.clientAuth() == TlsConfig.ClientAuth.NONE
                ? "it sent no token" : "it presented no client certificate and sent no token");
        ch.pipeline()
                .addLast("heartbeat", HeartbeatHandler.provider(g.idleMillis(), out,
                        asked -> dispatcher.handshake(asked, caller.identity())))
                .addLast("identity", new IdentityHandler(caller, authenticator))
                .addLast("goaway", new GoAwayHandler(out))
                .addLast("requests", new RequestHandler(dispatcher, g.admission(), out, g.payloadBytes(),
                        g.callsPerConnection(), g.budget(), caller, new ServerStreams(g.streamIdleMillis())));
    }
}
