package io.kestrel.rpc.transport.internal.tls;

import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Turns the TLS engine's handshake failures into messages that say what to fix, on the side that
 * can fix it: the consumer learns when the provider's certificate is not trusted or does not name
 * the host, or that the provider refused its certificate; the provider logs why it refused one.
 */
public final class TlsFailures {
    private TlsFailures() {
    }

    /** Whether {@code t} or one of its causes is a TLS failure. */
    public static boolean isTls(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    /** A consumer's message for a failed handshake with {@code address}. */
    public static String explainClientSide(Throwable failure, String address) {
        String detail = detail(failure);
        String text = detail.toLowerCase(Locale.ROOT);
        String hint;
        if (text.contains("timed out")) {
            hint = "the provider did not complete the handshake within tls-handshake-timeout; is it overloaded, or"
                    + " not speaking TLS?";
        } else if (text.contains("no subject alternative") || text.contains("no name matching")) {
            hint = "the provider's certificate does not name the host this consumer dials; reissue it with that"
                    + " host as a DNS or IP subject alternative name, or set tls-verify-hostname=\"false\"";
        } else if (text.contains("pkix") || text.contains("certification path") || text.contains("unable to find")) {
            hint = "the provider's certificate is not signed by a CA in this consumer's tls-trust (wrong CA, or"
                    + " tls-trust not set)";
        } else if (text.contains("expired") || text.contains("not yet valid") || text.contains("validity")) {
            hint = "the provider's certificate is expired or not yet valid; renew it, or check the clocks";
        } else if (text.contains("alert") && (text.contains("certificate") || text.contains("handshake_failure"))) {
            hint = "the provider refused this consumer's certificate (missing, expired, or not signed by a CA the"
                    + " provider trusts); its log says which";
        } else if (text.contains("protocol_version") || text.contains("no appropriate protocol")) {
            hint = "the two sides share no TLS version; check tls-protocols on both";
        } else if (text.contains("cipher") || text.contains("insufficient_security")) {
            hint = "the two sides share no cipher suite; check tls-ciphers on both";
        } else {
            hint = "check the TLS settings of both sides";
        }
        return "TLS handshake with provider " + address + " failed: " + detail + " (" + hint + ")";
    }

    /** A provider's log line for a failed handshake with a consumer. */
    public static String explainServerSide(Throwable failure) {
        String detail = detail(failure);
        String text = detail.toLowerCase(Locale.ROOT);
        if (text.contains("empty client certificate chain") || text.contains("certificate_required")) {
            return detail + " (tls-client-auth=require and the consumer sent no certificate)";
        }
        if (text.contains("pkix") || text.contains("certification path")) {
            return detail + " (the consumer's certificate is not signed by a CA in tls-trust)";
        }
        if (text.contains("expired") || text.contains("validity")) {
            return detail + " (the consumer's certificate is expired or not yet valid)";
        }
        return detail;
    }

    /** The engine's own words: the messages of the cause chain, each once. */
    private static String detail(Throwable failure) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = failure; c != null && c.getCause() != c; c = c.getCause()) {
            String m = c.getMessage();
            if (m != null && !m.isBlank() && sb.indexOf(m) < 0) {
                sb.append(sb.length() == 0 ? "" : ": ").append(m);
            }
        }
        return sb.length() == 0 ? String.valueOf(failure) : sb.toString();
    }
}
