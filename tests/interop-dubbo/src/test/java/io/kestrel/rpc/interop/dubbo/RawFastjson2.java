package io.kestrel.rpc.interop.dubbo;

import com.alibaba.fastjson2.JSONB;
import com.alibaba.fastjson2.JSONWriter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * Dubbo request bodies in Dubbo 3.3's fastjson2 framing (serialization id 23), built by hand for hostile tests:
 * each value a 4-byte big-endian length and one JSONB value, as Dubbo's FastJson2ObjectOutput writes them.
 */
final class RawFastjson2 {
    static final int ID = 23;
    private static final JSONWriter.Feature[] DUBBO_FEATURES = {
        JSONWriter.Feature.WriteClassName, JSONWriter.Feature.FieldBased, JSONWriter.Feature.ReferenceDetection,
        JSONWriter.Feature.WriteNulls, JSONWriter.Feature.NotWriteDefaultValue,
        JSONWriter.Feature.NotWriteHashMapArrayListClassName, JSONWriter.Feature.WriteNameAsSymbol,
    };

    private RawFastjson2() {
    }

    /** A request body: the head strings, the argument values (already JSONB), then the attachments. */
    static byte[] body(String path, String method, String desc, Map<String, String> attachments, byte[]... args) {
        return body(path, method, desc, value(new HashMap<>(attachments)), args);
    }

    /** As above with the attachments value given as JSONB. */
    static byte[] body(String path, String method, String desc, byte[] attachments, byte[]... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String s : new String[] {"2.0.2", path, "0.0.0", method, desc}) {
            framed(out, value(s));
        }
        for (byte[] a : args) {
            framed(out, a);
        }
        framed(out, attachments);
        return out.toByteArray();
    }

    /** One value as Dubbo writes it (without the length). */
    static byte[] value(Object v) {
        return JSONB.toBytes(v, DUBBO_FEATURES);
    }

    /**
     * A JSONB object that names {@code typeName} as its type (JSONB's typed-any marker, what fastjson2 writes for
     * "@type"), with one string field.
     */
    static byte[] typed(String typeName, String field, String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(-110); // BC_TYPED_ANY
        string(out, typeName);
        out.write(0); // the type name's symbol number, as fastjson2 writes it
        out.write(-90); // BC_OBJECT
        string(out, field);
        string(out, text);
        out.write(-91); // BC_OBJECT_END
        return out.toByteArray();
    }

    /** A JSONB map of one entry whose value is given as JSONB. */
    static byte[] map(String key, byte[] value) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(-90); // BC_OBJECT
        string(out, key);
        out.writeBytes(value);
        out.write(-91); // BC_OBJECT_END
        return out.toByteArray();
    }

    private static void string(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (b.length <= 47) {
            out.write(73 + b.length); // BC_STR_ASCII_FIX_0 + length
        } else {
            out.write(121); // BC_STR_ASCII, then the length as a JSONB int (two-byte form: 48..63)
            out.write(56 + (b.length >> 8));
            out.write(b.length & 0xff);
        }
        out.writeBytes(b);
    }

    private static void framed(ByteArrayOutputStream out, byte[] value) {
        out.writeBytes(ByteBuffer.allocate(4).putInt(value.length).array());
        out.writeBytes(value);
    }
}
