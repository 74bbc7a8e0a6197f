package io.kestrel.rpc.api.security;

import io.kestrel.rpc.api.UnauthenticatedException;

/**
 * Verifies the credential (a bearer token) a consumer sends once per connection, right after the
 * TLS handshake, and says who the caller is. A provider uses one: set on the protocol by name
 * ({@code authenticator="..."}, found with {@link java.util.ServiceLoader} under
 * {@code META-INF/services/io.kestrel.rpc.api.security.Authenticator}) or as an instance
 * ({@code ProtocolConfig.Builder.authenticator(Authenticator)}).
 *
 * <p>Called on the connection's I/O thread, once per connection: it must not block (verify a
 * signature, look up a local table or a cache; do not call a remote service). Thread-safe.
 */
public interface Authenticator {
    /** The name used in configuration. */
    String name();

    /**
     * Checks a token.
     *
     * @param token what the consumer sent (its {@code token} setting), never null or empty
     * @param certificate the identity of the connection's verified client certificate, or null
     * @return who the caller is
     * @throws UnauthenticatedException with the reason (unknown, expired, revoked token...), which
     *     is sent to the consumer with every call it makes to a service that restricts its callers
     */
    CallerIdentity authenticate(String token, CallerIdentity certificate);

    /**
     * For tokens of the form {@code <id>.<secret>} that consumers bind to the provider they call
     * ({@code -Dkestrel.rpc.consumer.bindToken=true}: they send a proof made with the secret for this provider's
     * address, never the token, so a provider that collects it cannot use it at another): the secret of the token
     * named {@code id}, or null when there is none. A proof that checks out is then passed to
     * {@link #authenticate} as the token {@code <id>.<secret>}. Must not block, like {@link #authenticate}.
     * Default: null (bound tokens are refused, the caller is anonymous).
     */
    default String secretOf(String id) {
        return null;
    }
}
