package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Whether a reference can talk to the providers its registry lists: providers publish whether their
 * port requires TLS ({@link ProviderInfo#TLS}). When every provider listed wants the other kind of
 * connection, the reference is refused at refer time with a message saying so, rather than
 * connecting in vain. (Providers met later are still told apart on the wire: each side recognises
 * the other's first bytes and the consumer's calls fail with the same explanation.)
 */
final class TlsMismatch {
    private TlsMismatch() {
    }

    /** The refusal message, or null when some provider matches (or none is listed). */
    static String describe(ServiceKey service, List<ProviderInfo> providers, boolean consumerTls) {
        if (providers.isEmpty() || providers.stream().anyMatch(p -> p.requiresTls() == consumerTls)) {
            return null;
        }
        String addresses = providers.stream().map(ProviderInfo::address).collect(Collectors.joining(", "));
        if (consumerTls) {
            return "Every provider of " + service + " (" + addresses + ") serves plaintext, per its registry record,"
                    + " but this reference is configured for TLS. Remove the reference's tls-* settings, or configure"
                    + " TLS on the providers' protocol (tls-cert, tls-key)";
        }
        return "Every provider of " + service + " (" + addresses + ") requires TLS, per its registry record"
                + " (tls=true), but this reference connects in plaintext. Configure TLS on the reference or the runtime:"
                + " tls-trust with the CA that signed the providers' certificates (and tls-cert, tls-key if they"
                + " require client certificates)";
    }
}
