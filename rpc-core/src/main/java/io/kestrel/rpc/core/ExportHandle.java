package io.kestrel.rpc.core;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.core.internal.provider.Exports;
import java.util.Map;

/**
 * The {@link Exporter} of one export: offline/online through the runtime's exports, keyed by the service; it
 * leaves the runtime's table of handles ({@link RpcRuntime#exporter}) when unexported.
 */
final class ExportHandle implements Exporter {
    private final Exports exports;
    private final Exports.Exported exported;
    private final Map<ServiceKey, Exporter> handles;

    ExportHandle(Exports exports, Exports.Exported exported, Map<ServiceKey, Exporter> handles) {
        this.exports = exports;
        this.exported = exported;
        this.handles = handles;
    }

    @Override
    public ProviderInfo provider() {
        return exported.info();
    }

    @Override
    public boolean offline() {
        return setOnline(false);
    }

    @Override
    public boolean online() {
        return setOnline(true);
    }

    private boolean setOnline(boolean online) {
        try {
            return exports.setOnline(service(), online);
        } catch (IllegalArgumentException notExported) {
            throw new IllegalStateException(service() + " was unexported, so it cannot go "
                    + (online ? "online" : "offline") + "; export it again", notExported);
        }
    }

    @Override
    public boolean isOnline() {
        return exports.isOnline(service());
    }

    @Override
    public void unexport() {
        exported.unexport();
        handles.remove(service(), this);
    }

    private ServiceKey service() {
        return exported.info().service();
    }
}
