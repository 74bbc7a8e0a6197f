package io.kestrel.rpc.serialization.fst;

import io.kestrel.rpc.api.serialization.TypeNameLimits;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.nustaq.serialization.FSTClazzNameRegistry;
import org.nustaq.serialization.FSTConfiguration;
import org.nustaq.serialization.coders.FSTStreamDecoder;

/**
 * fst's default stream decoder with the two string readers replaced by ones that check the claimed
 * length against the bytes left before allocating. fst's own {@code readStringUTF} allocates (and
 * keeps per thread) a {@code char[3 * claimed]} before reading, {@code readStringAsc} a
 * {@code byte[claimed]}. The wire format is unchanged: a compact-int character count, then per
 * character one byte (0..254) or 255 followed by the char's two bytes little-endian; ASCII strings
 * are a count and one byte per character.
 *
 * <p>Only valid on byte-array-backed input (fst's {@code resetForReuseUseArray}), which is how
 * {@link FstSerializer} reads: then {@link #available()} is exact.
 */
final class BoundedFstDecoder extends FSTStreamDecoder {
    BoundedFstDecoder(FSTConfiguration conf) {
        super(conf);
        clnames = new LimitedNames(conf.getClassRegistry());
    }

    /**
     * fst's class names for this decoder, with the {@link TypeNameLimits} checked before fst loads a
     * name: the allowlisting loader sees only an array's element, never its dimensions.
     */
    private static final class LimitedNames extends FSTClazzNameRegistry {
        LimitedNames(FSTClazzNameRegistry parent) {
            super(parent);
        }

        @Override
        public Class classForName(String name, FSTConfiguration conf) throws ClassNotFoundException {
            TypeNameLimits.check(name);
            return super.classForName(name, conf);
        }
    }

    @Override
    public String readStringUTF() throws IOException {
        int length = readFInt();
        int left = available();
        if (length < 0 || length > left) {
            throw new IOException("input claims a string of " + length + " chars but only " + left
                    + " bytes are left; refusing to allocate for it");
        }
        byte[] buf = getBuffer();
        int pos = getInputPos();
        int end = pos + left;
        char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            if (pos >= end) {
                throw new EOFException("string ends after " + i + " of " + length + " chars");
            }
            int head = buf[pos++] & 0xff;
            if (head < 255) {
                chars[i] = (char) head;
            } else {
                if (pos + 2 > end) {
                    throw new EOFException("string ends inside a two-byte char");
                }
                chars[i] = (char) ((buf[pos] & 0xff) | (buf[pos + 1] & 0xff) << 8);
                pos += 2;
            }
        }
        moveTo(pos);
        return new String(chars);
    }

    @Override
    public String readStringAsc() throws IOException {
        int length = readFInt();
        int left = available();
        if (length < 0 || length > left) {
            throw new IOException("input claims an ASCII string of " + length + " bytes but only " + left
                    + " are left; refusing to allocate for it");
        }
        int pos = getInputPos();
        String s = new String(getBuffer(), pos, length, StandardCharsets.ISO_8859_1);
        moveTo(pos + length);
        return s;
    }
}
