package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ConsumerLimits;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.registry.ProviderInfo;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptimizer;
import io.kestrel.rpc.api.serialization.Serializations;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.core.internal.shared.SerializerCache;
import io.kestrel.rpc.core.internal.shared.ServiceFacts;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How one reference and one provider agree on serialization and optimizer, the Dubbo way: the
 * provider's settings are what counts, and a reference only needs to set them to insist on something.
 * <ul>
 *   <li>Serialization: the reference's {@code serialization} if set, else the one the provider prefers
 *       ({@link ServiceFacts#preferred()}); it must be one the provider accepts. A preferred one whose reader
 *       cannot bound its work (java, fastjson2) is not adopted unless listed in
 *       {@link ConsumerLimits#ADOPT_UNBOUNDED_PROPERTY}: a hostile provider or registry writer could otherwise
 *       choose it for this consumer.</li>
 *   <li>Optimizer: the reference's if set, else the provider's, loaded by class name (it must then be
 *       on the consumer's class path). For a serialization that writes registered classes as numbers,
 *       the two class lists must be equal, in order (compared by fingerprint, explained by a diff).</li>
 *   <li>Compatible mode: on when the reference or the provider turns it on.</li>
 * </ul>
 * This runtime's protocol is its provider side's configuration (the Dubbo rule): its serialization,
 * optimizer and compatible mode do not override what a provider publishes. They still serve providers
 * that publish nothing (an earlier version, or a direct connection whose handshake has not told yet),
 * which are used as before: the reference's settings, else this runtime's protocol's, if the provider's
 * record accepts the serialization. The outcome is a {@link Terms}: the serializer for calls to that
 * provider, or why the provider is left out. Computed once per provider record or handshake, never
 * per call. Thread-safe.
 */
final class Agreement {
    private final ServiceKey service;
    private final String explicitSerialization;
    private final String ownSerialization;
    private final Class<? extends SerializationOptimizer> ownOptimizer;
    private final boolean ownCompatible;
    private final Class<? extends SerializationOptimizer> legacyOptimizer;
    private final boolean legacyCompatible;
    private final SerializerCache serializers;

    /**
     * @throws IllegalArgumentException for an unknown serialization name on the reference, or an
     *     optimizer that cannot be created (checked now, at refer)
     */
    private final String referenceProtocol;

    Agreement(ReferenceConfig<?> config, ProtocolConfig protocol, SerializerCache serializers) {
        this.service = config.key();
        this.referenceProtocol = config.protocol();
        this.serializers = serializers;
        this.explicitSerialization = config.serialization() == null ? null
                : Serializations.installed().byName(config.serialization()).name();
        // hessian2 on the dubbo protocol unless the reference sets fastjson2 (DubboReferences checks the name)
        this.ownSerialization = config.protocol().equals(ProtocolConfig.DUBBO) ? "hessian2"
                : Serializations.installed().byName(protocol.serialization()).name();
        this.ownOptimizer = config.optimizer();
        this.ownCompatible = config.compatible();
        this.legacyOptimizer = config.optimizer() != null ? config.optimizer() : protocol.optimizer();
        this.legacyCompatible = config.compatible() || protocol.compatible();
        serializers.registeredClassNames(legacyOptimizer); // a broken optimizer fails the refer
    }

    /** The serializer for calls to a provider, or why it is left out. */
    record Terms(Serializer serializer, String summary, String refusal, boolean fromRecord, Object handshake) {
        boolean usable() {
            return serializer != null;
        }
    }

    /** A serializer agreed on, and how it was chosen in a few words, for logs. */
    private record Chosen(Serializer serializer, String summary) {
    }

    /**
     * Agrees with {@code provider}: on the facts of its registry record if it has them, else on those of
     * its connection's {@code handshake} (null before the first one).
     */
    Terms agree(ProviderInfo provider, Map<String, Map<String, String>> handshake) {
        // records say it when the port is not native; direct mode has no record and takes the url's word
        String speaks = provider.attribute(ProviderInfo.PROTOCOL).orElse(referenceProtocol);
        if (!speaks.equals(referenceProtocol)) {
            return new Terms(null, null, "provider " + provider.address() + " speaks the " + speaks + " protocol for "
                    + service + "; this reference speaks " + referenceProtocol + ". Set protocol=\"" + speaks
                    + "\" on the reference", true, handshake);
        }
        ServiceFacts facts = ServiceFacts.fromRecord(provider);
        boolean fromRecord = facts != null;
        if (facts == null && handshake != null) {
            facts = ServiceFacts.fromHandshake(handshake.get(service.toString()));
        }
        try {
            Chosen c = facts != null ? agreed(provider, facts) : unspoken(provider, !fromRecord && handshake == null);
            return new Terms(c.serializer(), c.summary(), null, fromRecord, handshake);
        } catch (Refusal r) {
            return new Terms(null, null, r.getMessage(), fromRecord, handshake);
        }
    }

    /** A provider that published nothing to agree on: this side's settings, if the record accepts them. */
    private Chosen unspoken(ProviderInfo provider, boolean beforeHandshake) {
        String name = explicitSerialization != null ? explicitSerialization : ownSerialization;
        Serializer s = create(name, legacyOptimizer, legacyCompatible);
        if (!provider.serializationIds().contains(s.id())) {
            throw new Refusal("provider " + provider.address() + " accepts serialization ids "
                    + provider.serializationIds() + " for " + service + "; this reference uses " + name + " (id " + s.id()
                    + ", " + (explicitSerialization != null ? "serialization= on the reference" : "this consumer's protocol")
                    + "). Set serialization= on the reference to one the provider accepts");
        }
        return new Chosen(s, name + (explicitSerialization != null ? "" : beforeHandshake
                ? " of this consumer until the provider's handshake tells its preference"
                : " of this consumer (the provider publishes no preference)") + (legacyOptimizer != null ? ", optimizer " + legacyOptimizer.getName() : ""));
    }

    private Chosen agreed(ProviderInfo provider, ServiceFacts facts) {
        String name = explicitSerialization != null ? explicitSerialization : facts.preferred();
        Serialization serialization = installed(provider, facts, name);
        if (explicitSerialization == null && !serialization.boundsDecodeWork()
                && !ConsumerLimits.mayAdoptUnbounded(serialization.name())) {
            throw new Refusal("provider " + provider.address() + " prefers serialization " + name + " for " + service
                    + ", whose reader cannot bound its decoding work (a small answer can keep this consumer busy for"
                    + " minutes), so this reference does not adopt it from a provider. Set serialization= on the"
                    + " reference to " + name + " if you trust this service's providers, or to another one the provider"
                    + " accepts (" + names(facts.accepted()) + "), or list it in -D"
                    + ConsumerLimits.ADOPT_UNBOUNDED_PROPERTY + "=" + name);
        }
        if (!facts.accepted().contains(serialization.id())) {
            throw new Refusal("provider " + provider.address() + " does not accept serialization " + name + " for "
                    + service + ": it accepts " + names(facts.accepted()) + " and prefers " + facts.preferred()
                    + "; this reference sets serialization=\"" + name + "\". Remove serialization= from the reference"
                    + " to use the provider's " + facts.preferred() + ", or add " + name + " to the service's"
                    + " serialization list on the provider");
        }
        Class<? extends SerializationOptimizer> optimizer = optimizer(provider, facts, serialization);
        if (serialization.encodesRegisteredClassesByNumber()) {
            compareClasses(provider, facts, serialization.name(), optimizer);
        }
        boolean compatible = ownCompatible || facts.compatible();
        return new Chosen(create(name, optimizer, compatible), name + (compatible ? " compatible" : "")
                + (explicitSerialization != null ? "" : " from the provider") + (optimizer == null ? ""
                        : ", optimizer " + optimizer.getName() + (optimizer == ownOptimizer ? "" : " from the provider")));
    }

    private Serialization installed(ProviderInfo provider, ServiceFacts facts, String name) {
        try {
            return Serializations.installed().byName(name);
        } catch (IllegalArgumentException e) {
            throw new Refusal("provider " + provider.address() + " prefers serialization " + name + " for " + service
                    + ", which is not installed on this consumer (" + e.getMessage() + "). Add its jar to the"
                    + " consumer, or set serialization= on the reference to another one the provider accepts: "
                    + names(facts.accepted()));
        }
    }

    /** This side's optimizer if it has one, else the provider's, loaded by name. */
    private Class<? extends SerializationOptimizer> optimizer(ProviderInfo provider, ServiceFacts facts,
            Serialization serialization) {
        if (ownOptimizer != null || facts.optimizer() == null) {
            return ownOptimizer;
        }
        try {
            return serializers.loadOptimizer(facts.optimizer());
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            if (!serialization.encodesRegisteredClassesByNumber()) {
                return null; // for this format registration only allows classes; the interface's types are allowed anyway
            }
            throw new Refusal("provider " + provider.address() + " registers the " + facts.optimizerClasses().size()
                    + " classes of its optimizer " + facts.optimizer() + " with " + serialization.name() + " for " + service
                    + ", and this consumer cannot load that class (" + e + "). Add " + facts.optimizer() + " to the"
                    + " consumer's class path (usually it ships with the service's API or DTO jar), or set optimizer="
                    + " on the reference to a class registering the same classes in the same order");
        }
    }

    private void compareClasses(ProviderInfo provider, ServiceFacts facts, String serialization,
            Class<? extends SerializationOptimizer> optimizer) {
        List<String> ours = registeredNames(optimizer);
        // an optimizer registering nothing is the same as none
        String ourFingerprint = ours.isEmpty() ? null : ServiceFacts.fingerprint(ours);
        String theirFingerprint = facts.optimizerClasses().isEmpty() && (facts.fingerprint() == null
                || facts.fingerprint().equals(ServiceFacts.fingerprint(List.of()))) ? null : facts.fingerprint();
        if (java.util.Objects.equals(ourFingerprint, theirFingerprint)) {
            return;
        }
        String theirs = facts.optimizer() == null ? "no optimizer (registers no classes)"
                : "optimizer " + facts.optimizer() + ", " + facts.optimizerClasses().size() + " classes (fingerprint "
                        + facts.fingerprint() + ")";
        String mine = optimizer == null ? "no optimizer (registers no classes)"
                : "optimizer " + optimizer.getName() + " (" + (optimizer == ownOptimizer ? "optimizer= on the reference"
                        : "the provider's, loaded by name") + "), " + ours.size() + " classes (fingerprint "
                        + ourFingerprint + ")";
        throw new Refusal("provider " + provider.address() + " registers other classes than this consumer with "
                + serialization + " for " + service + ": provider: " + theirs + "; this consumer: " + mine + "; "
                + diff(facts.optimizerClasses(), ours) + ". " + serialization + " writes registered classes as numbers,"
                + " so both sides must register the same classes in the same order: use the same optimizer (and version"
                + " of it) on both sides, or remove optimizer= from the reference to adopt the provider's");
    }

    private List<String> registeredNames(Class<? extends SerializationOptimizer> optimizer) {
        try {
            return serializers.registeredClassNames(optimizer);
        } catch (IllegalArgumentException e) {
            throw new Refusal(e.getMessage());
        }
    }

    /** Where two ordered class lists differ: the first position, and what each lacks. */
    static String diff(List<String> provider, List<String> consumer) {
        int i = 0;
        while (i < provider.size() && i < consumer.size() && provider.get(i).equals(consumer.get(i))) {
            i++;
        }
        StringBuilder sb = new StringBuilder();
        if (i < provider.size() || i < consumer.size()) {
            sb.append("first difference at position ").append(i + 1).append(": provider registers ")
                    .append(i < provider.size() ? provider.get(i) : "nothing more").append(", this consumer ")
                    .append(i < consumer.size() ? consumer.get(i) : "nothing more");
        } else {
            sb.append("the class lists are equal but the fingerprints differ");
        }
        List<String> missing = new ArrayList<>(provider);
        missing.removeAll(consumer);
        List<String> extra = new ArrayList<>(consumer);
        extra.removeAll(provider);
        if (!missing.isEmpty()) {
            sb.append("; missing here: ").append(missing);
        }
        if (!extra.isEmpty()) {
            sb.append("; extra here: ").append(extra);
        }
        if (missing.isEmpty() && extra.isEmpty() && (i < provider.size() || i < consumer.size())) {
            sb.append(" (the same classes in another order)");
        }
        return sb.toString();
    }

    /** A serializer, or a refusal saying why there is none (a bad optimizer, or its library not on the class path). */
    private Serializer create(String name, Class<? extends SerializationOptimizer> optimizer, boolean compatible) {
        try {
            return serializers.get(name, optimizer, compatible);
        } catch (IllegalArgumentException | SerializationException e) {
            throw new Refusal(e.getMessage());
        }
    }

    private static String names(List<Byte> ids) {
        List<String> names = new ArrayList<>();
        for (byte id : ids) {
            Serialization s = Serializations.installed().byId(id);
            names.add(s != null ? s.name() : "id " + id);
        }
        return names.toString();
    }

    /** This consumer's settings, for messages. */
    String describe() {
        return "this reference: serialization " + (explicitSerialization != null ? explicitSerialization + " (set on it)"
                : "not set (adopts each provider's)") + ", optimizer " + (ownOptimizer != null ? ownOptimizer.getName()
                + " (set on it)" : "not set (adopts each provider's)");
    }

    /** Why a provider is left out; a message for users, no stack trace needed. */
    private static final class Refusal extends RuntimeException {
        Refusal(String message) {
            super(message, null, false, false);
        }
    }
}
