package io.kestrel.rpc.demo.bid;

import java.io.Serializable;

/** A creative size in device-independent pixels. Mutable bean; not thread-safe. */
public class Size implements Serializable {
    private static final long serialVersionUID = 1L;

    private int width;
    private int height;

    public Size() {
    }

    public Size(int width, int height) {
        this.width = width;
        this.height = height;
    }

    public int getWidth() {
        return width;
    }

    public void setWidth(int width) {
        this.width = width;
    }

    public int getHeight() {
        return height;
    }

    public void setHeight(int height) {
        this.height = height;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Size s && width == s.width && height == s.height;
    }

    @Override
    public int hashCode() {
        return 31 * width + height;
    }

    @Override
    public String toString() {
        return width + "x" + height;
    }
}
