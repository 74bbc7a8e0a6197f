package io.kestrel.rpc.api.config;

/** The application's name, used in logs and registry records. Immutable. */
public record ApplicationConfig(String name) {
    public ApplicationConfig {
        name = Checks.nonBlank("application name", name);
    }
}
