package io.kestrel.rpc.transport.internal.tls;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.api.security.CallerIdentity;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.internal.Frame;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Establishes who the caller on one provider connection is, into its {@link CallerState}:
 * <ul>
 *   <li>when the TLS handshake completes with a verified client certificate (mutual TLS), the
 *       certificate's subject and alternative names; a failed handshake is logged with its reason
 *       (the consumer sees only the TLS alert);</li>
 *   <li>on the consumer's {@link Status#CREDENTIAL} event (once per connection, before its calls),
 *       the identity the {@link Authenticator} returns for the token, or anonymous with the
 *       authenticator's reason. Later credentials on the same connection are ignored.</li>
 * </ul>
 * Sits after the heartbeat handler; other frames pass on. One per connection.
 */
public final class IdentityHandler extends ChannelInboundHandlerAdapter {
    private static final Logger log = LoggerFactory.getLogger(IdentityHandler.class);
    /** Largest token read; a longer one is refused unread. */
    public static final int MAX_TOKEN_BYTES = 16 * 1024;

    private final CallerState state;
    private final Authenticator authenticator;
    private CallerIdentity certificate;
    private boolean credentialSeen;

    /** @param authenticator checks tokens; null when the provider has none */
    public IdentityHandler(CallerState state, Authenticator authenticator) {
        this.state = state;
        this.authenticator = authenticator;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof SslHandshakeCompletionEvent done) {
            if (done.isSuccess()) {
                certificate = peerCertificate(ctx);
                if (credentialSeen) { // the token was checked first: add the certificate to what it proved
                    if (state.identity() != null) {
                        state.verified(state.identity().withCertificate(certificate));
                    }
                } else if (certificate != null) {
                    state.verified(certificate);
                }
            } else {
                log.info("TLS handshake with consumer {} failed: {}", ctx.channel().remoteAddress(),
                        TlsFailures.explainServerSide(done.cause()));
            }
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof Frame f) || !f.isEvent() || f.status != Status.CREDENTIAL.code()) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (credentialSeen) {
                // a well-framed event is no reason to close; the authenticator still runs once per connection
                log.debug("Consumer {} sent a second credential on one connection; ignored",
                        ctx.channel().remoteAddress());
                return;
            }
            credentialSeen = true;
            if (f.oversized() || f.bodyLength > MAX_TOKEN_BYTES) {
                state.anonymous("its token of " + f.bodyLength + " bytes is over the limit of " + MAX_TOKEN_BYTES);
                return;
            }
            authenticate(ctx, f.body.toString(StandardCharsets.UTF_8));
        } finally {
            f.release();
        }
    }

    private void authenticate(ChannelHandlerContext ctx, String token) {
        if (authenticator == null) {
            log.debug("Consumer {} sent a token; this provider has no authenticator, so it is ignored",
                    ctx.channel().remoteAddress());
            if (certificate == null) {
                state.anonymous("it sent a token, but this provider has no authenticator to check it (set"
                        + " authenticator on the provider's protocol)");
            }
            return;
        }
        if (BoundToken.isProof(token)) {
            token = boundToken(ctx, token);
            if (token == null) {
                return;
            }
        }
        try {
            CallerIdentity identity = authenticator.authenticate(token, certificate);
            if (identity == null) {
                throw new RpcException("authenticator '" + authenticator.name() + "' returned no identity");
            }
            state.verified(identity.withCertificate(certificate));
            log.debug("Consumer {} authenticated as {}", ctx.channel().remoteAddress(), identity);
        } catch (RuntimeException e) {
            // a rejected token makes the caller anonymous even with a certificate: it asked to be someone else
            state.anonymous("its token was rejected by authenticator '" + authenticator.name() + "': "
                    + e.getMessage());
            log.info("Consumer {}: token rejected by authenticator '{}': {}", ctx.channel().remoteAddress(),
                    authenticator.name(), e.getMessage());
        }
    }

    /**
     * The token a bound proof ({@link BoundToken}) stands for, once it proved its secret for this provider's end
     * of the connection; else null, the caller made anonymous with the reason.
     */
    private String boundToken(ChannelHandlerContext ctx, String proof) {
        String id = BoundToken.id(proof);
        String secret = id == null ? null : authenticator.secretOf(id);
        String refusal = id == null ? "a malformed bound token" : secret == null ? "a bound token whose id authenticator '"
                + authenticator.name() + "' does not know (or it does not support bound tokens: Authenticator.secretOf)"
                : BoundToken.refusal(proof, secret, ctx.channel().localAddress());
        if (refusal == null) {
            return id + "." + secret;
        }
        state.anonymous("it sent " + refusal);
        log.info("Consumer {}: credential refused: {}", ctx.channel().remoteAddress(), refusal);
        return null;
    }

    /** The verified client certificate's identity, or null when the consumer sent none. */
    private static CallerIdentity peerCertificate(ChannelHandlerContext ctx) {
        SslHandler ssl = ctx.pipeline().get(SslHandler.class);
        if (ssl == null) {
            return null;
        }
        Certificate[] chain;
        try {
            chain = ssl.engine().getSession().getPeerCertificates();
        } catch (SSLPeerUnverifiedException e) {
            return null;
        }
        if (chain.length == 0 || !(chain[0] instanceof X509Certificate leaf)) {
            return null;
        }
        return CallerIdentity.ofCertificate(leaf.getSubjectX500Principal().getName(), alternativeNames(leaf));
    }

    /** "DNS:...", "IP:...", "URI:...", "EMAIL:..." for each subject alternative name of these types. */
    static List<String> alternativeNames(X509Certificate certificate) {
        List<String> names = new ArrayList<>();
        try {
            Collection<List<?>> sans = certificate.getSubjectAlternativeNames();
            if (sans == null) {
                return names;
            }
            for (List<?> san : sans) {
                String type = switch ((Integer) san.get(0)) {
                    case 1 -> "EMAIL";
                    case 2 -> "DNS";
                    case 6 -> "URI";
                    case 7 -> "IP";
                    default -> null;
                };
                if (type != null && san.get(1) instanceof String value) {
                    names.add(type + ":" + value);
                }
            }
        } catch (CertificateParsingException e) {
            log.debug("Unreadable subject alternative names in {}: {}", certificate.getSubjectX500Principal(), e.toString());
        }
        return names;
    }
}
