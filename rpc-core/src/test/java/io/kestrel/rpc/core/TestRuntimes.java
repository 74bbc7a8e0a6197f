package io.kestrel.rpc.core;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.fixture.EchoService;
import io.kestrel.rpc.core.fixture.EchoServiceImpl;
import java.time.Duration;
import java.util.List;

/** Provider and consumer runtimes on loopback, and the serialization matrix every core test runs. */
public final class TestRuntimes {
    /** Suffix of a matrix entry that runs its serialization in compatible mode on both sides. */
    public static final String COMPATIBLE = "-compatible";

    /**
     * The serialization matrix: every installed serialization, fory (the default) first and in both
     * of its modes. An entry is a serialization name, or a name + {@value #COMPATIBLE} (provider and
     * reference both in compatible mode; compatibility is a provider-wide setting, so such an entry
     * needs a provider of its own, see {@link #echoProvider(ProtocolConfig.Builder, String)}).
     */
    public static final List<String> SERIALIZATIONS = List.of("fory", "fory" + COMPATIBLE, "kryo", "fst", "hessian2",
            "fastjson2", "java");

    private TestRuntimes() {
    }

    /** The serialization name of a matrix entry ("fory-compatible" is "fory"). */
    public static String name(String entry) {
        return compatible(entry) ? entry.substring(0, entry.length() - COMPATIBLE.length()) : entry;
    }

    /** Whether a matrix entry runs in compatible mode. */
    public static boolean compatible(String entry) {
        return entry.endsWith(COMPATIBLE);
    }

    /** A serializer for a matrix entry, as a runtime would create it with this allowlist. */
    public static Serializer serializer(String entry, ClassAllowlist allowlist) {
        return Serializations.installed().byName(name(entry))
                .create(SerializationOptions.builder().allowlist(allowlist).compatible(compatible(entry)).build());
    }

    public static ProtocolConfig.Builder loopback() {
        return ProtocolConfig.builder().host("127.0.0.1").port(0).shutdownTimeout(Duration.ofSeconds(2));
    }

    /**
     * A provider exporting {@link EchoServiceImpl} on a free loopback port, accepting every built-in
     * serialization (fastjson2 is not accepted by default, so it is listed explicitly).
     */
    public static RpcRuntime echoProvider(ProtocolConfig config) {
        RpcRuntime provider = RpcRuntime.builder().protocol(config).build();
        ServiceConfig.Builder<EchoService> service = ServiceConfig.builder(EchoService.class, new EchoServiceImpl());
        for (String name : List.of("kryo", "fst", "hessian2", "fastjson2", "java", "fory")) {
            service.serialization(name);
        }
        provider.export(service.build());
        return provider;
    }

    /** An echo provider for a matrix entry: in compatible mode when the entry is. */
    public static RpcRuntime echoProvider(ProtocolConfig.Builder config, String entry) {
        return echoProvider(config.compatible(compatible(entry)).build());
    }

    /** A direct reference to the echo provider with a matrix entry's serialization and mode. */
    public static ReferenceConfig.Builder<EchoService> echoReference(RpcRuntime provider, String entry) {
        return ReferenceConfig.builder(EchoService.class).url("127.0.0.1:" + provider.boundPort())
                .serialization(name(entry)).compatible(compatible(entry)).timeout(Duration.ofSeconds(5));
    }
}
