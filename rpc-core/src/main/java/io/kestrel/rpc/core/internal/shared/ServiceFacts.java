package io.kestrel.rpc.core.internal.shared;

import io.kestrel.rpc.api.registry.ProviderInfo;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a provider asks the consumers of one service to agree on: the serializations it accepts, the
 * one it prefers, whether they run in compatible mode, and the classes its optimizer registers (with
 * their fingerprint). Published as attributes of the service's registry record ({@link ProviderInfo}'s
 * constants) and, for direct references, in the connection's handshake (the same attributes plus
 * {@value #ACCEPTED}, the accepted serialization ids, which the record holds in its own field).
 *
 * @param accepted wire ids of the accepted serializations
 * @param preferred name of the preferred serialization
 * @param compatible whether the provider's serializations run in compatible mode
 * @param optimizer the optimizer's class name, or null for none
 * @param optimizerClasses the classes it registers, in order (empty for none)
 * @param fingerprint {@link #fingerprint}{@code (optimizerClasses)}, or null for none
 */
public record ServiceFacts(List<Byte> accepted, String preferred, boolean compatible, String optimizer,
        List<String> optimizerClasses, String fingerprint) {
    /** Handshake attribute holding the accepted serialization ids, comma-separated. */
    static final String ACCEPTED = "serialization";

    /** The provider's facts for a service. */
    public static ServiceFacts of(List<Byte> accepted, String preferred, boolean compatible, String optimizer,
            List<String> optimizerClasses) {
        return new ServiceFacts(List.copyOf(accepted), preferred, compatible, optimizer, List.copyOf(optimizerClasses),
                optimizer == null ? null : fingerprint(optimizerClasses));
    }

    /** The attributes for the service's registry record (the accepted ids are a field of their own there). */
    public Map<String, String> recordAttributes() {
        Map<String, String> a = new LinkedHashMap<>();
        a.put(ProviderInfo.PREFERRED_SERIALIZATION, preferred);
        if (compatible) {
            a.put(ProviderInfo.COMPATIBLE, "true");
        }
        if (optimizer != null) {
            a.put(ProviderInfo.OPTIMIZER, optimizer);
            a.put(ProviderInfo.OPTIMIZER_CLASSES, compact(optimizerClasses));
            a.put(ProviderInfo.OPTIMIZER_FINGERPRINT, fingerprint);
        }
        return a;
    }

    /** The attributes sent in the handshake: the record's plus the accepted ids. */
    public Map<String, String> handshakeAttributes() {
        Map<String, String> a = recordAttributes();
        List<String> ids = new ArrayList<>();
        accepted.forEach(id -> ids.add(Byte.toString(id)));
        a.put(ACCEPTED, String.join(",", ids));
        return Map.copyOf(a);
    }

    /** The facts in a registry record, or null when the record has none (a provider of an earlier version). */
    public static ServiceFacts fromRecord(ProviderInfo record) {
        return parse(record.serializationIds(), record.attributes());
    }

    /** The facts of one service in a handshake, or null when the provider said nothing about it. */
    public static ServiceFacts fromHandshake(Map<String, String> attributes) {
        if (attributes == null || attributes.get(ACCEPTED) == null) {
            return null;
        }
        List<Byte> ids = new ArrayList<>();
        for (String s : attributes.get(ACCEPTED).split(",")) {
            if (!s.isBlank()) {
                ids.add(Byte.parseByte(s.trim()));
            }
        }
        return parse(ids, attributes);
    }

    private static ServiceFacts parse(List<Byte> accepted, Map<String, String> a) {
        String preferred = a.get(ProviderInfo.PREFERRED_SERIALIZATION);
        if (preferred == null || preferred.isBlank()) {
            return null;
        }
        String optimizer = a.get(ProviderInfo.OPTIMIZER);
        List<String> classes = expand(a.get(ProviderInfo.OPTIMIZER_CLASSES));
        String fingerprint = a.get(ProviderInfo.OPTIMIZER_FINGERPRINT);
        if (optimizer != null && fingerprint == null) {
            fingerprint = fingerprint(classes);
        }
        return new ServiceFacts(List.copyOf(accepted), preferred, "true".equals(a.get(ProviderInfo.COMPATIBLE)),
                optimizer, List.copyOf(classes), fingerprint);
    }

    /**
     * The class list as published: comma-separated, a name in the same package as the one before it written
     * as ".SimpleName" (the demo's 20 classes take 246 characters instead of 662).
     */
    static String compact(List<String> classNames) {
        StringBuilder sb = new StringBuilder();
        String previousPackage = null;
        for (String name : classNames) {
            int dot = name.lastIndexOf('.');
            String pkg = dot < 0 ? "" : name.substring(0, dot);
            sb.append(sb.length() == 0 ? "" : ",");
            sb.append(dot > 0 && pkg.equals(previousPackage) ? name.substring(dot) : name);
            previousPackage = pkg;
        }
        return sb.toString();
    }

    /** Reads {@link #compact}'s form (plain comma-separated names read as themselves); null reads as none. */
    static List<String> expand(String list) {
        List<String> names = new ArrayList<>();
        if (list == null) {
            return names;
        }
        String previousPackage = "";
        for (String part : list.split(",")) {
            String c = part.trim();
            if (c.isEmpty()) {
                continue;
            }
            String name = c.startsWith(".") ? previousPackage + c : c;
            int dot = name.lastIndexOf('.');
            previousPackage = dot < 0 ? "" : name.substring(0, dot);
            names.add(name);
        }
        return names;
    }

    /** 16 hex digits of SHA-256 over the class names in order, each followed by a newline. */
    public static String fingerprint(List<String> classNames) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String name : classNames) {
                sha.update(name.getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
