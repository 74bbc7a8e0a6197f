package io.kestrel.rpc.spring.boot.actuate;

import io.kestrel.rpc.core.RpcRuntime;
import java.util.function.Function;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** {@link KestrelRpcHealth} as a Spring Boot 4 health indicator. */
public class KestrelRpcHealthIndicator implements HealthIndicator {
    private final RpcRuntime runtime;
    private final Function<RpcRuntime, KestrelRpcHealth> check;

    /** @param check {@link KestrelRpcHealth#of} or {@link KestrelRpcHealth#server} */
    public KestrelRpcHealthIndicator(RpcRuntime runtime, Function<RpcRuntime, KestrelRpcHealth> check) {
        this.runtime = runtime;
        this.check = check;
    }

    @Override
    public Health health() {
        KestrelRpcHealth h = check.apply(runtime);
        return (h.up() ? Health.up() : Health.down()).withDetails(h.details()).build();
    }
}
