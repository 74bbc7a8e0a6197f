package io.kestrel.rpc.api.security;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Who is calling, as the provider verified it for the caller's connection: by the consumer's TLS
 * certificate (mutual TLS) and/or by a token checked by an {@link Authenticator}. Available to
 * provider code during a call as {@link io.kestrel.rpc.api.RpcContext#getCaller()}; a caller that
 * proved nothing is anonymous (no identity). Immutable.
 */
public final class CallerIdentity {
    private final String name;
    private final Set<String> roles;
    private final String certificateSubject;
    private final List<String> subjectAlternativeNames;
    private final String authenticatedBy;

    private CallerIdentity(String name, Set<String> roles, String certificateSubject,
            List<String> subjectAlternativeNames, String authenticatedBy) {
        this.name = Objects.requireNonNull(name, "name");
        this.roles = Set.copyOf(roles);
        this.certificateSubject = certificateSubject;
        this.subjectAlternativeNames = List.copyOf(subjectAlternativeNames);
        this.authenticatedBy = authenticatedBy;
    }

    /**
     * An identity an {@link Authenticator} vouches for.
     *
     * @param name the principal's name, compared with a service's allowed principals
     * @param roles compared with a service's allowed roles
     */
    public static CallerIdentity of(String name, Set<String> roles) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a caller identity needs a non-empty name");
        }
        return new CallerIdentity(name.trim(), roles, null, List.of(), "token");
    }

    /**
     * The identity of a verified client certificate: named by its subject (RFC 2253 form).
     *
     * @param subjectAlternativeNames as "DNS:host", "IP:10.0.0.1", "URI:spiffe://...", "EMAIL:a@b"
     */
    public static CallerIdentity ofCertificate(String subject, List<String> subjectAlternativeNames) {
        return new CallerIdentity(subject, Set.of(), subject, subjectAlternativeNames, "tls");
    }

    /**
     * This (token) identity on a connection whose client certificate was verified too: keeps this
     * name and roles and adds the certificate's subject and alternative names.
     */
    public CallerIdentity withCertificate(CallerIdentity certificate) {
        if (certificate == null) {
            return this;
        }
        return new CallerIdentity(name, roles, certificate.certificateSubject, certificate.subjectAlternativeNames,
                authenticatedBy + "+tls");
    }

    /** The principal: the authenticator's name for it, or else the certificate subject. */
    public String name() {
        return name;
    }

    /** Roles the authenticator granted; empty for a certificate-only identity. */
    public Set<String> roles() {
        return roles;
    }

    /** The verified client certificate's subject (RFC 2253), or null without mutual TLS. */
    public String certificateSubject() {
        return certificateSubject;
    }

    /** The verified client certificate's subject alternative names ("DNS:...", "URI:..."); may be empty. */
    public List<String> subjectAlternativeNames() {
        return subjectAlternativeNames;
    }

    /** How the identity was proved: "tls", "token" or "token+tls". */
    public String authenticatedBy() {
        return authenticatedBy;
    }

    /**
     * Whether {@code principal} names this caller: its name, its certificate subject, or one of the
     * certificate's alternative names (with its type, "URI:spiffe://a/b", or without, "spiffe://a/b").
     * {@code "*"} names every authenticated caller.
     */
    public boolean isNamed(String principal) {
        if (principal.equals("*") || principal.equals(name) || principal.equals(certificateSubject)) {
            return true;
        }
        for (String san : subjectAlternativeNames) {
            if (san.equals(principal) || san.substring(san.indexOf(':') + 1).equals(principal)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CallerIdentity c && name.equals(c.name) && roles.equals(c.roles)
                && Objects.equals(certificateSubject, c.certificateSubject)
                && subjectAlternativeNames.equals(c.subjectAlternativeNames) && authenticatedBy.equals(c.authenticatedBy);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, roles, certificateSubject, subjectAlternativeNames);
    }

    @Override
    public String toString() {
        return "'" + name + "' (" + authenticatedBy + (roles.isEmpty() ? "" : ", roles " + roles)
                + (subjectAlternativeNames.isEmpty() ? "" : ", " + subjectAlternativeNames) + ")";
    }
}
