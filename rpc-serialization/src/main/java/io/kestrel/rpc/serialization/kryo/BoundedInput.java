package io.kestrel.rpc.serialization.kryo;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A kryo {@link Input} over one whole value held in memory, that refuses a length prefix claiming
 * more elements than there are bytes left before allocating for it. Every element of a kryo array
 * or string takes at least one byte, so such a claim can only come from corrupt or hostile input;
 * without this check kryo allocates the claimed array first (a 5-byte prefix can ask for 2^31
 * elements) and fails with {@link OutOfMemoryError}.
 *
 * <p>Collections, maps and object arrays are bounded the same way by
 * {@link BoundedCollectionSerializers}. Not thread-safe (one per pooled kryo).
 */
final class BoundedInput extends Input {
    BoundedInput(int bufferSize) {
        super(bufferSize);
    }

    /** Throws unless {@code count} elements of at least one byte each can still be in the input. */
    void checkCount(int count, String what) {
        int remaining = limit - position;
        if (count < 0 || count > remaining) {
            throw new KryoException("input claims " + count + " " + what + " but only " + remaining
                    + " bytes remain; refusing to allocate for it");
        }
    }

    @Override
    public byte[] readBytes(int length) {
        checkCount(length, "bytes");
        return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
        checkCount(length, "ints");
        return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        checkCount(length, "ints");
        return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        checkCount(length, "longs");
        return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        checkCount(length, "longs");
        return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
        checkCount(length, "floats");
        return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
        checkCount(length, "doubles");
        return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
        checkCount(length, "shorts");
        return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
        checkCount(length, "chars");
        return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
        checkCount(length, "booleans");
        return super.readBooleans(length);
    }

    /**
     * Kryo writes an ASCII string with the last byte marked (no length; first byte's 0x80 bit clear),
     * and any other string as a variable-length character count + 1 (first byte: 0x80 set, 0x40 =
     * more bytes follow, 6 value bits; then 7 bits per byte, 0x80 = more), then UTF-8. Peek at that count before kryo
     * allocates a char array of its size.
     */
    @Override
    public String readString() {
        if (position < limit && (buffer[position] & 0x80) != 0) {
            int p = position;
            int b = buffer[p++];
            long count = b & 0x3F;
            int shift = 6;
            while ((b & 0x40) != 0 || (shift > 6 && (b & 0x80) != 0)) {
                if (p >= limit || shift > 34) {
                    break; // let kryo report the truncation itself
                }
                b = buffer[p++];
                count |= (long) (b & 0x7F) << shift;
                shift += 7;
                if ((b & 0x80) == 0) {
                    break;
                }
            }
            if (count > 1) {
                checkCount((int) Math.min(Integer.MAX_VALUE, count - 1), "characters");
            }
        }
        return super.readString();
    }
}
