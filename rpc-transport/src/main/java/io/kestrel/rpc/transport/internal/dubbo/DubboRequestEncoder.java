package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.ServiceKey;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufOutputStream;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a consumer's dubbo request body (layout in {@link DubboWire}) on the calling thread: dubbo version
 * "2.0.2", the interface, the version ("0.0.0" for none, as Dubbo writes it), the method name, the parameter
 * descriptor, the arguments and the attachments (the call's, plus path, interface, version, group and timeout,
 * as a stock Dubbo consumer sends them). What a method's descriptor turns into is worked out once per method.
 */
public final class DubboRequestEncoder {
    /** The dubbo version stock Dubbo 2.7 and 3.x consumers send: providers answer with response attachments. */
    static final String DUBBO_VERSION = "2.0.2";
    private static final int MAX_CACHED = 10_000;
    private static final Map<String, Head> HEADS = new ConcurrentHashMap<>();

    private DubboRequestEncoder() {
    }

    /** The parts of a request that depend only on its method. */
    private record Head(String path, String version, String group, String method, String desc) {
    }

    /** The request's body; the caller owns (and releases) it. */
    public static ByteBuf encode(ByteBufAllocator alloc, RpcRequest request) {
        Head head = head(request.method());
        Map<String, Object> attachments = new HashMap<>(request.attachments());
        attachments.put("path", head.path());
        attachments.put("interface", head.path());
        attachments.put("version", head.version());
        if (!head.group().isEmpty()) {
            attachments.put("group", head.group());
        }
        if (request.timeoutMillis() > 0) {
            attachments.put("timeout", Integer.toString(request.timeoutMillis()));
        }
        ByteBuf body = alloc.buffer();
        try {
            request.serializer().writeSequence(new ByteBufOutputStream(body), values -> {
                values.write(DUBBO_VERSION);
                values.write(head.path());
                values.write(head.version());
                values.write(head.method());
                values.write(head.desc());
                for (Object arg : request.arguments()) {
                    values.write(arg);
                }
                values.write(attachments);
                return null;
            });
            return body;
        } catch (RuntimeException e) {
            body.release();
            throw e;
        }
    }

    private static Head head(MethodRef method) {
        Head head = HEADS.get(method.descriptor());
        if (head == null) {
            head = parse(method.descriptor());
            if (HEADS.size() < MAX_CACHED) {
                HEADS.put(method.descriptor(), head);
            }
        }
        return head;
    }

    /** "group/iface:1.0#name(java.lang.String,int[])" into its Dubbo parts. */
    private static Head parse(String descriptor) {
        int hash = descriptor.indexOf('#');
        ServiceKey key = ServiceKey.parse(descriptor.substring(0, hash));
        int paren = descriptor.indexOf('(', hash);
        String name = descriptor.substring(hash + 1, paren);
        String params = descriptor.substring(paren + 1, descriptor.length() - 1);
        StringBuilder desc = new StringBuilder();
        if (!params.isEmpty()) {
            for (String type : params.split(",")) {
                desc.append(jvmDescriptor(type));
            }
        }
        return new Head(key.interfaceName(), key.version().isEmpty() ? "0.0.0" : key.version(), key.group(), name,
                desc.toString());
    }

    /** "java.lang.String" as "Ljava/lang/String;", "int[]" as "[I". */
    static String jvmDescriptor(String typeName) {
        String t = typeName;
        StringBuilder sb = new StringBuilder();
        while (t.endsWith("[]")) {
            sb.append('[');
            t = t.substring(0, t.length() - 2);
        }
        sb.append(switch (t) {
            case "boolean" -> "Z";
            case "byte" -> "B";
            case "char" -> "C";
            case "short" -> "S";
            case "int" -> "I";
            case "long" -> "J";
            case "float" -> "F";
            case "double" -> "D";
            case "void" -> "V";
            default -> "L" + t.replace('.', '/') + ";";
        });
        return sb.toString();
    }
}
