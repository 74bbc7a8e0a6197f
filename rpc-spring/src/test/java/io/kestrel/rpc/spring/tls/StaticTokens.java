package io.kestrel.rpc.spring.tls;

import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.security.Authenticator;
import io.kestrel.rpc.api.security.CallerIdentity;
import java.util.Set;

/** Accepts one token, "s3cret", as "ops" with role "admin". Found by name through ServiceLoader. */
public class StaticTokens implements Authenticator {
    @Override
    public String name() {
        return "static-tokens";
    }

    @Override
    public CallerIdentity authenticate(String token, CallerIdentity certificate) {
        if (!token.equals("s3cret")) {
            throw new UnauthenticatedException("unknown token");
        }
        return CallerIdentity.of("ops", Set.of("admin"));
    }
}
