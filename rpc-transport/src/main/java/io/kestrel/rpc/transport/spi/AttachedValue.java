package io.kestrel.rpc.transport.spi;

import java.util.Map;

/**
 * What a call's future completes with when the provider's answer carried response attachments: the
 * value and the attachments. A plain value otherwise (no wrapper is allocated for answers without
 * attachments); {@link #valueOf} unwraps either.
 *
 * @param value the method's result
 * @param attachments what the provider sent with it, never empty
 */
public record AttachedValue(Object value, Map<String, String> attachments) {
    /** The method's result, whether or not {@code result} is wrapped. */
    public static Object valueOf(Object result) {
        return result instanceof AttachedValue a ? a.value : result;
    }

    /** The response attachments {@code result} carries, or an empty map. */
    public static Map<String, String> attachmentsOf(Object result) {
        return result instanceof AttachedValue a ? a.attachments : Map.of();
    }
}
