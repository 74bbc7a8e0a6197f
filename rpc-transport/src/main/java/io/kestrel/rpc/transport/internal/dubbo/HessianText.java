package io.kestrel.rpc.transport.internal.dubbo;

import io.netty.buffer.ByteBuf;

/** Writes a hessian2 string by hand, for answers to requests whose serialization this side does not have. */
final class HessianText {
    private HessianText() {
    }

    /** Hessian 2's string: chunks of at most 0x7fff characters, 'R' for each but the last, 'S' for the last. */
    static void writeString(ByteBuf buf, String s) {
        int offset = 0;
        do {
            int n = Math.min(0x7fff, s.length() - offset);
            boolean last = offset + n == s.length();
            buf.writeByte(last ? 'S' : 'R');
            buf.writeShort(n);
            for (int i = offset; i < offset + n; i++) {
                char c = s.charAt(i);
                if (c < 0x80) {
                    buf.writeByte(c);
                } else if (c < 0x800) {
                    buf.writeByte(0xc0 | (c >> 6));
                    buf.writeByte(0x80 | (c & 0x3f));
                } else {
                    buf.writeByte(0xe0 | (c >> 12));
                    buf.writeByte(0x80 | ((c >> 6) & 0x3f));
                    buf.writeByte(0x80 | (c & 0x3f));
                }
            }
            offset += n;
        } while (offset < s.length());
    }
}
