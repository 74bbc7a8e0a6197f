package io.kestrel.rpc.console.internal;

import io.kestrel.rpc.api.generic.PropertyMetadata;
import io.kestrel.rpc.api.generic.TypeDetails;
import io.kestrel.rpc.api.generic.TypeInfo;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON value of the right shape for a declared type, to start the invoke form's textarea from: beans as
 * maps of their properties (a bean met again inside itself is left null), collections with one element,
 * enums as their first constant, dates as an ISO-8601 instant.
 */
final class Skeletons {
    private static final int MAX_DEPTH = 6;

    private Skeletons() {
    }

    static Object of(TypeInfo type, Map<String, TypeDetails> types) {
        return of(type, types, new HashSet<>(), 0);
    }

    private static Object of(TypeInfo type, Map<String, TypeDetails> types, Set<String> open, int depth) {
        if (depth > MAX_DEPTH) {
            return null;
        }
        switch (type.kind()) {
            case BOOLEAN:
                return false;
            case NUMBER:
                return 0;
            case STRING:
            case BYTES:
                return "";
            case DATE_TIME:
                return "2026-01-01T00:00:00Z";
            case ENUM: {
                TypeDetails d = types.get(type.className());
                return d == null || d.constants().isEmpty() ? "" : d.constants().get(0);
            }
            case COLLECTION: {
                List<Object> one = new ArrayList<>();
                if (!type.arguments().isEmpty()) {
                    one.add(of(type.arguments().get(0), types, open, depth + 1));
                }
                return one;
            }
            case MAP:
                return new LinkedHashMap<>();
            case OPTIONAL:
                return type.arguments().isEmpty() ? null : of(type.arguments().get(0), types, open, depth + 1);
            case BEAN: {
                TypeDetails d = types.get(type.className());
                if (d == null || !open.add(type.className())) {
                    return null;
                }
                Map<String, Object> bean = new LinkedHashMap<>();
                for (PropertyMetadata p : d.properties()) {
                    bean.put(p.name(), of(p.type(), types, open, depth + 1));
                }
                open.remove(type.className());
                return bean;
            }
            default:
                return null;
        }
    }
}
