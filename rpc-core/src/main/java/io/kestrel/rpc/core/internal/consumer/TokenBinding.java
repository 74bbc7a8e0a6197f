package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.transport.spi.ClientOptions;

/**
 * Whether a reference's token may be sent to the providers the registry names. Over TLS the token
 * goes only to a provider this consumer can verify against trust it chose ({@code tls-trust}): with
 * the JDK's default trust store, any host with a public certificate passes, for a host name the
 * registry writer chose, and would collect the token (which every other provider then accepts).
 * Sending anyway needs {@value ConsumerLimits#TOKEN_WITH_DEFAULT_TRUST_PROPERTY}. A token bound to its providers
 * ({@value ConsumerLimits#BIND_TOKEN_PROPERTY}) must have the form {@code <id>.<secret>}. Stateless.
 */
final class TokenBinding {
    private TokenBinding() {
    }

    /** Why {@code options} must not be used for {@code service}, or null when they may. */
    static String refusal(ServiceKey service, ClientOptions options) {
        String token = options.connection().token();
        if (token != null && ConsumerLimits.bindToken()
                && (token.indexOf('.') <= 0 || token.endsWith(".") || token.indexOf(' ') >= 0)) {
            return "reference " + service + "'s token cannot be bound to its providers: with -D"
                    + ConsumerLimits.BIND_TOKEN_PROPERTY + "=true a token must have the form <id>.<secret> (no spaces);"
                    + " the consumer sends the id and a proof made with the secret for each provider, never the secret";
        }
        if (options.connection().token() == null || options.connection().tls() == null || options.connection().tls().trustRoots() != null
                || ConsumerLimits.tokenWithDefaultTrust()) {
            return null;
        }
        return "reference " + service + " sends a token over TLS without tls-trust: the provider's certificate would"
                + " be checked against the JDK's default trust store, so any host with a public certificate for a host"
                + " name written into the registry could collect the token. Set tls-trust to the PEM file of the CA"
                + " that signs your providers' certificates, or, if every provider really has a publicly trusted"
                + " certificate and the registry is trusted, start the JVM with -D"
                + ConsumerLimits.TOKEN_WITH_DEFAULT_TRUST_PROPERTY + "=true";
    }
}
