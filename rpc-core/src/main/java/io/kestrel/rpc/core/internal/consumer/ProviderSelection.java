package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.NoProviderException;
import io.kestrel.rpc.api.cluster.Invocation;
import io.kestrel.rpc.api.cluster.LoadBalance;
import io.kestrel.rpc.api.config.ReferenceConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Which provider of a reference an attempt goes to: one agreed with (serialization and optimizer), not
 * tried yet by this call, connected if any is, not ejected by {@link OutlierEjection} (an ejected one whose
 * time is over takes this call as its probe; when every connected one is ejected they are used anyway), and
 * among several the load balance's choice. With nobody left, a {@link NoProviderException} that says what was
 * seen and why none would do. Thread-safe.
 */
final class ProviderSelection {
    /** The call asking; its invocation is built only when the load balance needs it. */
    interface Call {
        Invocation invocation();
    }

    private final ReferenceConfig<?> config;
    private final Directory directory;
    private final LoadBalance loadBalance;
    private final Agreement agreement;
    private final OutlierEjection ejection;

    ProviderSelection(ReferenceConfig<?> config, Directory directory, LoadBalance loadBalance, Agreement agreement,
            OutlierEjection ejection) {
        this.config = config;
        this.ejection = ejection;
        this.directory = directory;
        this.loadBalance = loadBalance;
        this.agreement = agreement;
    }

    /**
     * The provider for the next attempt of {@code call}, which has already failed on {@code tried}.
     *
     * @throws NoProviderException when no usable provider is left
     */
    Endpoint select(Call call, List<Endpoint> tried) {
        List<Endpoint> all = directory.endpoints();
        if (all.size() == 1 && tried.isEmpty()) {
            // one provider (direct mode, or a registry listing one): nothing to balance, no lists to build
            Endpoint only = all.get(0);
            if (only.terms().usable()) {
                return only; // connected or not: a disconnected one fails the call with the connection's own message
            }
        }
        List<Endpoint> usable = new ArrayList<>(all.size());
        List<Endpoint> disconnected = new ArrayList<>();
        List<Endpoint> ejected = null;
        for (Endpoint e : all) {
            if (!e.terms().usable() || tried.contains(e)) {
                continue;
            }
            if (!e.connection().isConnected()) {
                disconnected.add(e);
            } else if (OutlierEjection.isEjected(e)) {
                if (ejection.admits(e, call)) {
                    return e; // its ejection is over: this call is its probe
                }
                if (ejected == null) {
                    ejected = new ArrayList<>(2);
                }
                ejected.add(e);
            } else {
                usable.add(e);
            }
        }
        if (usable.isEmpty() && ejected != null) {
            usable = ejected; // never leave a reference with nobody because of ejection
        }
        if (usable.isEmpty()) {
            usable = disconnected; // let the call fail with the connection's own message
        }
        if (usable.isEmpty()) {
            return throwNoProvider(tried);
        }
        if (usable.size() == 1) {
            return usable.get(0);
        }
        return loadBalance.select(usable, call.invocation());
    }

    private Endpoint throwNoProvider(List<Endpoint> tried) {
        throw new NoProviderException("No provider available for " + config.key() + " (interface "
                + config.interfaceName() + ", version '" + config.version() + "', group '" + config.group()
                + "') from " + directory.source() + "; providers seen: " + directory.explainProviders()
                + directory.otherVersions() + directory.nothingKept()
                + (tried.isEmpty() ? "" : "; already tried: " + tried) + "; " + agreement.describe()
                + ". Start a provider, or check the interface, version, group, serialization and optimizer on both sides");
    }
}
