package io.kestrel.rpc.core;

import java.util.List;

/**
 * A read-only snapshot of one service a runtime exports, as its registry record says.
 *
 * @param service the service key, {@code group/interface:version}
 * @param address where it is served, "host:port" (the advertised host)
 * @param methods the remote method names
 * @param serializations the serialization names the service accepts
 * @param weight the published load-balancing weight
 * @param warmupMillis the published warm-up in milliseconds, 0 for none
 */
public record ServiceView(String service, String address, List<String> methods, List<String> serializations,
        int weight, long warmupMillis) {
    public ServiceView {
        methods = List.copyOf(methods);
        serializations = List.copyOf(serializations);
    }
}
