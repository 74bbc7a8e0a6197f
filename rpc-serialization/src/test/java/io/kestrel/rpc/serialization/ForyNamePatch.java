package io.kestrel.rpc.serialization;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import org.apache.fory.meta.EncodedMetaString;
import org.apache.fory.meta.Encoders;
import org.apache.fory.meta.MetaString;

/**
 * Renames a class inside a fory stream. Fory does not write class names as plain text: it writes the
 * package and the simple name as two compact "meta strings" (a length header, then an encoding byte,
 * or for more than 16 bytes a 64-bit hash, then 5- or 6-bit packed characters). This re-encodes both
 * names with fory's own encoders and splices the new blocks in, so security tests can make a stream
 * name a class the test itself never loads.
 */
final class ForyNamePatch {
    private static final int SMALL_STRING_THRESHOLD = 16;

    private ForyNamePatch() {
    }

    static byte[] patchName(byte[] bytes, String from, String to) {
        int fromDot = from.lastIndexOf('.');
        int toDot = to.lastIndexOf('.');
        byte[] fromPkg = withHeader(Encoders.encodePackage(from.substring(0, fromDot)));
        byte[] toPkg = withHeader(Encoders.encodePackage(to.substring(0, toDot)));
        int[] hits = new int[1];
        String fromSimple = from.substring(fromDot + 1);
        String toSimple = to.substring(toDot + 1);
        byte[] result = replace(bytes, fromPkg, toPkg, withHeader(Encoders.encodeTypeName(fromSimple)),
                withHeader(Encoders.encodeTypeName(toSimple)), hits);
        // arrays: the simple name carries one '1' per dimension
        result = replace(result, fromPkg, toPkg, withHeader(Encoders.encodeTypeName("1" + fromSimple)),
                withHeader(Encoders.encodeTypeName("1" + toSimple)), hits);
        assertTrue(hits[0] > 0, "fory meta strings of " + from + " not found in the bytes");
        return result;
    }

    /**
     * Replaces each (package, type name) pair whose type name is {@code fromType}. The package
     * before it is either written out ({@code fromPkg}) or, when another class of the same package
     * came first, a one-byte back reference; either way it becomes a written-out {@code toPkg}, so
     * only this class moves to the other package. A back reference that followed would now point one
     * entry off, which is fine for these small test graphs that end with the patched class.
     */
    private static byte[] replace(byte[] bytes, byte[] fromPkg, byte[] toPkg, byte[] fromType, byte[] toType, int[] hits) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int copied = 0;
        for (int i = 0; i + fromType.length <= bytes.length; i++) {
            if (!Arrays.equals(bytes, i, i + fromType.length, fromType, 0, fromType.length)) {
                continue;
            }
            int pkgStart;
            if (i >= fromPkg.length && Arrays.equals(bytes, i - fromPkg.length, i, fromPkg, 0, fromPkg.length)) {
                pkgStart = i - fromPkg.length;
            } else if (i >= 1 && (bytes[i - 1] & 0x81) == 0x01) {
                pkgStart = i - 1; // back reference to a package string written earlier
            } else {
                continue;
            }
            if (pkgStart < copied) {
                continue;
            }
            out.write(bytes, copied, pkgStart - copied);
            out.writeBytes(toPkg);
            out.writeBytes(toType);
            copied = i + fromType.length;
            i = copied - 1;
            hits[0]++;
        }
        out.write(bytes, copied, bytes.length - copied);
        return out.toByteArray();
    }

    /** One-byte header (length << 1; an odd header is a back reference instead), then {@link #block}. */
    private static byte[] withHeader(MetaString s) {
        int length = s.getBytes().length;
        int header = length << 1;
        assertTrue(header < 0x80, "name too long for a one-byte header");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(header);
        out.writeBytes(block(s));
        return out.toByteArray();
    }

    private static byte[] block(MetaString s) {
        byte[] body = s.getBytes();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (body.length > SMALL_STRING_THRESHOLD) {
            long hash = new EncodedMetaString(body, s.getEncoding()).hash;
            for (int k = 0; k < 8; k++) {
                out.write((int) (hash >>> (8 * k)));
            }
        } else {
            out.write(s.getEncoding().getValue());
        }
        out.writeBytes(body);
        return out.toByteArray();
    }
}
