package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ServiceKey;
import io.netty.buffer.ByteBuf;
import java.util.StringJoiner;

/**
 * The leading strings of a dubbo request body in hessian2, read on the event loop without a serializer: dubbo
 * version, service path, service version, method name and parameter descriptor. Only hessian's string and null
 * forms are accepted here, so nothing is instantiated before the method (and with it the serializations it
 * accepts) is known; the descriptor's class names are turned into the native method descriptor as text, never
 * loaded. The arguments and attachments follow at {@link #argumentsOffset}.
 *
 * @param argumentsOffset index in the body where the arguments start
 */
record DubboRequestHead(String dubboVersion, String path, String version, String method, String parameterDesc,
        int argumentsOffset) {
    /** Longest string accepted in the head, in characters: a service path, method name or descriptor. */
    static final int MAX_STRING_CHARS = 16 * 1024;

    /** The strings of a head in one serialization's form. */
    interface Strings {
        /** The next string (or null); {@code what} names it in errors. */
        String string(String what);

        /** Index in the body after the strings read so far. */
        int index();
    }

    /**
     * Reads the head of a request body in Dubbo's serialization {@code dubboId}: hessian2, or fastjson2's framing
     * ({@link JsonbHeadStrings}). The body's reader index is left alone.
     */
    static DubboRequestHead read(ByteBuf body, byte dubboId) {
        Strings r = dubboId == DubboWire.DUBBO_FASTJSON2 ? new JsonbHeadStrings(body, body.readerIndex())
                : new Reader(body, body.readerIndex());
        String dubboVersion = r.string("dubbo version");
        String path = r.string("service path");
        String version = r.string("service version");
        String method = r.string("method name");
        String desc = r.string("parameter descriptor");
        if (path == null || path.isEmpty() || method == null || method.isEmpty()) {
            throw new BadRequestException("dubbo request names no service path or method");
        }
        return new DubboRequestHead(dubboVersion, path, version, method, desc == null ? "" : desc, r.index());
    }

    /**
     * The native descriptor {@code group/interface:version#method(type,...)} of this request; the group comes from
     * the attachments (Dubbo sends it there), version "0.0.0" means none.
     */
    String descriptor(String group) {
        String v = version == null || version.equals("0.0.0") ? "" : version;
        return new ServiceKey(path, v, group) + "#" + method + "(" + javaTypeNames(parameterDesc) + ")";
    }

    /** "Ljava/lang/String;I[J" as "java.lang.String,int,long[]", without loading a class. */
    static String javaTypeNames(String desc) {
        StringJoiner names = new StringJoiner(",");
        int i = 0;
        while (i < desc.length()) {
            int dims = 0;
            while (i < desc.length() && desc.charAt(i) == '[') {
                dims++;
                i++;
            }
            if (i >= desc.length()) {
                throw new BadRequestException("parameter descriptor '" + desc + "' ends inside an array type");
            }
            char c = desc.charAt(i);
            String name;
            if (c == 'L') {
                int end = desc.indexOf(';', i);
                if (end < 0) {
                    throw new BadRequestException("parameter descriptor '" + desc + "' has an unterminated class name");
                }
                name = desc.substring(i + 1, end).replace('/', '.');
                i = end + 1;
            } else {
                name = switch (c) {
                    case 'Z' -> "boolean";
                    case 'B' -> "byte";
                    case 'C' -> "char";
                    case 'S' -> "short";
                    case 'I' -> "int";
                    case 'J' -> "long";
                    case 'F' -> "float";
                    case 'D' -> "double";
                    default -> throw new BadRequestException("parameter descriptor '" + desc + "' has an unknown type"
                            + " letter '" + c + "'");
                };
                i++;
            }
            names.add(name + "[]".repeat(dims));
        }
        return names.toString();
    }

    /** Dubbo's descriptor of parameter types ("Ljava/lang/String;I"). */
    static String desc(Class<?>[] types) {
        StringBuilder sb = new StringBuilder();
        for (Class<?> t : types) {
            desc(t, sb);
        }
        return sb.toString();
    }

    private static void desc(Class<?> t, StringBuilder sb) {
        if (t.isArray()) {
            sb.append('[');
            desc(t.getComponentType(), sb);
        } else if (t.isPrimitive()) {
            sb.append(t == int.class ? 'I' : t == long.class ? 'J' : t == boolean.class ? 'Z' : t == byte.class ? 'B'
                    : t == char.class ? 'C' : t == short.class ? 'S' : t == float.class ? 'F' : t == double.class ? 'D'
                    : 'V');
        } else {
            sb.append('L').append(t.getName().replace('.', '/')).append(';');
        }
    }

    /** Hessian 2 strings: 'N', 0x00-0x1f short, 0x30-0x33 medium, 'R' chunks then 'S' final chunk (UTF-8). */
    private static final class Reader implements Strings {
        private final ByteBuf buf;
        private int index;

        Reader(ByteBuf buf, int index) {
            this.buf = buf;
            this.index = index;
        }

        @Override
        public int index() {
            return index;
        }

        @Override
        public String string(String what) {
            int tag = next(what);
            if (tag == 'N') {
                return null;
            }
            StringBuilder sb = new StringBuilder();
            while (true) {
                int chars;
                boolean last = true;
                if (tag <= 0x1f) {
                    chars = tag;
                } else if (tag >= 0x30 && tag <= 0x33) {
                    chars = ((tag - 0x30) << 8) + next(what);
                } else if (tag == 'S' || tag == 'R') {
                    chars = (next(what) << 8) + next(what);
                    last = tag == 'S';
                } else {
                    throw new BadRequestException(String.format("dubbo request: the %s is not a string (hessian tag"
                            + " 0x%02x)", what, tag));
                }
                if (sb.length() + chars > MAX_STRING_CHARS) {
                    throw new BadRequestException("dubbo request: the " + what + " is longer than " + MAX_STRING_CHARS
                            + " characters");
                }
                for (int i = 0; i < chars; i++) {
                    sb.append(utf8Char(what));
                }
                if (last) {
                    return sb.toString();
                }
                tag = next(what);
            }
        }

        private char utf8Char(String what) {
            int b = next(what);
            if (b < 0x80) {
                return (char) b;
            }
            if ((b & 0xe0) == 0xc0) {
                return (char) (((b & 0x1f) << 6) | (next(what) & 0x3f));
            }
            if ((b & 0xf0) == 0xe0) {
                return (char) (((b & 0x0f) << 12) | ((next(what) & 0x3f) << 6) | (next(what) & 0x3f));
            }
            throw new BadRequestException("dubbo request: bad UTF-8 in the " + what);
        }

        private int next(String what) {
            if (index >= buf.writerIndex()) {
                throw new BadRequestException("dubbo request body ends inside the " + what);
            }
            return buf.getUnsignedByte(index++);
        }
    }
}
