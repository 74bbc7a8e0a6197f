package io.kestrel.rpc.core;

import java.util.List;

/**
 * A read-only snapshot of one reference of a runtime and the providers it currently knows.
 *
 * @param service the service key, {@code group/interface:version}
 * @param source where its providers come from: the registry, or the direct url
 * @param check whether startup required a reachable provider ({@code check=true})
 * @param providers the providers it may call, each with its connection state
 */
public record ReferenceView(String service, String source, boolean check, List<Provider> providers) {
    public ReferenceView {
        providers = List.copyOf(providers);
    }

    /** How many of its providers outlier ejection has out of balancing now. */
    public long ejectedProviders() {
        return providers.stream().filter(Provider::ejected).count();
    }

    /** Whether at least one provider's connection takes calls now. */
    public boolean hasReadyProvider() {
        return providers.stream().anyMatch(Provider::ready);
    }

    /**
     * One provider of a reference.
     *
     * @param address "host:port"
     * @param state the state of the shared connection (see {@link ConnectionView#state()})
     * @param weight the published weight
     * @param effectiveWeight the weight load balancing uses now (lower than {@code weight} while the provider warms up)
     * @param ejected whether outlier ejection has it out of balancing now (timeouts or transport failures in a row)
     * @param ejections how often outlier ejection took it out of balancing so far
     * @param unlisted whether the registry no longer lists it and it is kept only because its connection is ready
     *     (registry empty-protection)
     */
    public record Provider(String address, String state, int weight, int effectiveWeight, boolean ejected,
            long ejections, boolean unlisted) {
        /** A provider never ejected and listed by its registry. */
        public Provider(String address, String state, int weight, int effectiveWeight) {
            this(address, state, weight, effectiveWeight, false, 0, false);
        }

        /** Whether the connection takes calls now. */
        public boolean ready() {
            return state.equals("READY");
        }
    }
}
