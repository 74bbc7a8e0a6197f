package io.kestrel.rpc.transport.internal.dubbo;

import io.kestrel.rpc.api.BadRequestException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The leading strings of a dubbo request body in Dubbo's fastjson2 framing, read by hand on the event loop: each
 * value is a 4-byte big-endian length and one JSONB value, here only a JSONB string or null. Anything else (an
 * object, a type name) is refused without being looked at further, so nothing is resolved or instantiated before
 * the method, and with it the serializations its service accepts, is known.
 */
final class JsonbHeadStrings implements DubboRequestHead.Strings {
    private static final int NULL = 0xaf;
    private static final int ASCII_FIX_MIN = 73;
    private static final int ASCII_FIX_MAX = 120;
    private static final int ASCII = 121;
    private static final int UTF8 = 122;
    private static final int UTF16 = 123;
    private static final int UTF16LE = 124;
    private static final int UTF16BE = 125;

    private final ByteBuf buf;
    private int index;

    JsonbHeadStrings(ByteBuf buf, int index) {
        this.buf = buf;
        this.index = index;
    }

    @Override
    public int index() {
        return index;
    }

    @Override
    public String string(String what) {
        if (buf.writerIndex() - index < Integer.BYTES) {
            throw new BadRequestException("dubbo request body ends inside the " + what);
        }
        int length = buf.getInt(index);
        int start = index + Integer.BYTES;
        if (length <= 0 || length > buf.writerIndex() - start) {
            throw new BadRequestException("dubbo request: the " + what + " claims " + length + " bytes, but "
                    + (buf.writerIndex() - start) + " are left in the body");
        }
        int end = start + length;
        index = start;
        String s = value(what, end);
        if (index != end) {
            throw new BadRequestException("dubbo request: the " + what + " is followed by other data in its value");
        }
        return s;
    }

    private String value(String what, int end) {
        int tag = next(what, end);
        if (tag == NULL) {
            return null;
        }
        if (tag >= ASCII_FIX_MIN && tag <= ASCII_FIX_MAX) {
            return text(what, end, tag - ASCII_FIX_MIN, StandardCharsets.ISO_8859_1);
        }
        Charset charset = switch (tag) {
            case ASCII -> StandardCharsets.ISO_8859_1;
            case UTF8 -> StandardCharsets.UTF_8;
            case UTF16 -> StandardCharsets.UTF_16;
            case UTF16LE -> StandardCharsets.UTF_16LE;
            case UTF16BE -> StandardCharsets.UTF_16BE;
            default -> throw new BadRequestException(String.format("dubbo request: the %s is not a string (JSONB"
                    + " type 0x%02x)", what, tag));
        };
        return text(what, end, int32(what, end), charset);
    }

    private String text(String what, int end, int bytes, Charset charset) {
        if (bytes < 0 || bytes > end - index) {
            throw new BadRequestException("dubbo request: the " + what + " claims " + bytes + " bytes of text, but "
                    + (end - index) + " are left in its value");
        }
        if (bytes > DubboRequestHead.MAX_STRING_CHARS * 3) {
            throw new BadRequestException("dubbo request: the " + what + " is longer than "
                    + DubboRequestHead.MAX_STRING_CHARS + " characters");
        }
        String s = buf.toString(index, bytes, charset);
        index += bytes;
        if (s.length() > DubboRequestHead.MAX_STRING_CHARS) {
            throw new BadRequestException("dubbo request: the " + what + " is longer than "
                    + DubboRequestHead.MAX_STRING_CHARS + " characters");
        }
        return s;
    }

    /** JSONB's compact int: one byte for -16..47, then two, three or five bytes. */
    private int int32(String what, int end) {
        int b = (byte) next(what, end);
        if (b >= -16 && b <= 47) {
            return b;
        }
        if (b >= 48 && b <= 63) {
            return ((b - 56) << 8) + next(what, end);
        }
        if (b >= 64 && b <= 71) {
            return ((b - 68) << 16) + (next(what, end) << 8) + next(what, end);
        }
        if (b == 72) {
            return (next(what, end) << 24) | (next(what, end) << 16) | (next(what, end) << 8) | next(what, end);
        }
        throw new BadRequestException(String.format("dubbo request: the length of the %s is not an int (JSONB type"
                + " 0x%02x)", what, b & 0xff));
    }

    private int next(String what, int end) {
        if (index >= end) {
            throw new BadRequestException("dubbo request: the " + what + "'s value ends early");
        }
        return buf.getUnsignedByte(index++);
    }
}
