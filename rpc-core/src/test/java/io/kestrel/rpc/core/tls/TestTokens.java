package io.kestrel.rpc.core.tls;

import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.api.security.CallerIdentity;
import java.util.Map;
import java.util.Set;

/**
 * A token table: alice (role reader), bob (role admin); "revoked-token" is revoked; anything else
 * is unknown. Listed in META-INF/services, so protocols can name it ("test-tokens").
 */
public class TestTokens implements Authenticator {
    private static final Map<String, CallerIdentity> TOKENS = Map.of(
            "alice-token", CallerIdentity.of("alice", Set.of("reader")),
            "bob-token", CallerIdentity.of("bob", Set.of("admin")));

    @Override
    public String name() {
        return "test-tokens";
    }

    @Override
    public CallerIdentity authenticate(String token, CallerIdentity certificate) {
        if (token.equals("revoked-token")) {
            throw new UnauthenticatedException("token revoked");
        }
        CallerIdentity identity = TOKENS.get(token);
        if (identity == null) {
            throw new UnauthenticatedException("unknown token");
        }
        return identity;
    }
}
