package io.kestrel.rpc.perf.soak.attack;

import com.caucho.hessian.io.Hessian2Output;
import io.kestrel.rpc.perf.support.BenchmarkService;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Apache Dubbo's {@code dubbo} protocol, written by hand as a hostile client would (layout in rpc-transport's
 * {@code DubboWire}): a 16-byte header (magic 0xdabb, flags: 0x80 request, 0x40 two-way, 0x20 event, low bits
 * the serialization, 2 for hessian2; status; request id; body length), then hessian2 values one after another:
 * dubbo version, service path, version, method, parameter descriptor, the arguments, the attachments.
 */
final class DubboFrames implements PortFrames {
    static final int HEADER_BYTES = 16;
    private static final int REQUEST_TWO_WAY_HESSIAN2 = 0x80 | 0x40 | 2;
    private static final int EVENT = 0x20;
    private static final String PATH = BenchmarkService.class.getName();

    @Override
    public String protocol() {
        return "dubbo";
    }

    @Override
    public byte[] heartbeat(long id) {
        return frame(REQUEST_TWO_WAY_HESSIAN2 | EVENT, id, new byte[] {'N'}); // hessian2's null: 17 bytes in all
    }

    @Override
    public byte[] probe(long id) {
        return heartbeat(id); // the dubbo heartbeat has no query: any service named in its answer is disclosed
    }

    @Override
    public byte[] unknownMethod(long id) {
        return frame(REQUEST_TWO_WAY_HESSIAN2, id, body("no.such.Service", "nope", "Ljava/lang/String;", "?"));
    }

    @Override
    public byte[] requestHeader(long id, int bodyLength) {
        return header(REQUEST_TWO_WAY_HESSIAN2, id, bodyLength);
    }

    @Override
    public byte[] generic(long id, String method, String[] types, Object[] args) {
        return frame(REQUEST_TWO_WAY_HESSIAN2, id, body(PATH, "$invoke",
                "Ljava/lang/String;[Ljava/lang/String;[Ljava/lang/Object;", method, types, args));
    }

    @Override
    public byte[] typedArrays(long id, List<String> typeNames) {
        // the typed arrays as the argument and again as an attachment's value: whichever the provider reads
        return frame(REQUEST_TWO_WAY_HESSIAN2, id, write(out -> {
            head(out, PATH, "echo", "Ljava/lang/String;");
            typedArrays(out, typeNames);
            out.writeMapBegin(null);
            out.writeString("path");
            out.writeString(PATH);
            out.writeString("pad");
            typedArrays(out, typeNames);
            out.writeMapEnd();
        }));
    }

    /** One hessian2 value: a list of typed arrays (a fixed-length typed list of one null each) of these names. */
    static byte[] hessianTypedArrays(List<String> typeNames) {
        return write(out -> typedArrays(out, typeNames));
    }

    private static void typedArrays(Hessian2Output out, List<String> typeNames) throws IOException {
        out.writeListBegin(typeNames.size(), null);
        for (String type : typeNames) {
            out.writeListBegin(1, type);
            out.writeNull();
        }
    }

    @Override
    public Answer read(DataInputStream in, int keep) throws IOException {
        byte[] header = new byte[HEADER_BYTES];
        in.readFully(header);
        ByteBuffer h = ByteBuffer.wrap(header);
        if (h.getShort() != (short) 0xdabb) {
            throw new IOException("bad magic in a dubbo answer");
        }
        int flags = h.get() & 0xff;
        int status = h.get() & 0xff;
        long id = h.getLong();
        return new Answer(flags, status, id, PortFrames.body(in, h.getInt(), keep));
    }

    private static byte[] body(String path, String method, String desc, Object... args) {
        return write(out -> {
            head(out, path, method, desc);
            for (Object a : args) {
                out.writeObject(a);
            }
            Map<String, String> attachments = new LinkedHashMap<>();
            attachments.put("path", path);
            attachments.put("timeout", "10000");
            out.writeObject(attachments);
        });
    }

    private static void head(Hessian2Output out, String path, String method, String desc) throws IOException {
        out.writeString("2.0.2");
        out.writeString(path);
        out.writeString("0.0.0");
        out.writeString(method);
        out.writeString(desc);
    }

    private interface Values {
        void write(Hessian2Output out) throws IOException;
    }

    private static byte[] write(Values values) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        try {
            values.write(out);
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static byte[] frame(int flags, long id, byte[] body) {
        return ByteBuffer.allocate(HEADER_BYTES + body.length).put(header(flags, id, body.length)).put(body).array();
    }

    private static byte[] header(int flags, long id, int bodyLength) {
        return ByteBuffer.allocate(HEADER_BYTES).putShort((short) 0xdabb).put((byte) flags).put((byte) 0).putLong(id)
                .putInt(bodyLength).array();
    }
}
