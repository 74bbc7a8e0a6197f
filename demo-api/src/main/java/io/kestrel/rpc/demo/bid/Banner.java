package io.kestrel.rpc.demo.bid;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** A banner ad slot: preferred size, accepted sizes, position and MIME types. Mutable bean. */
public class Banner implements Serializable {
    private static final long serialVersionUID = 1L;

    private int width;
    private int height;
    private List<Size> sizes;
    private AdPosition position;
    private List<String> mimeTypes;
    private List<Integer> blockedCreativeTypes;
    private boolean topFrame;

    public Banner() {
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

    public List<Size> getSizes() {
        return sizes;
    }

    public void setSizes(List<Size> sizes) {
        this.sizes = sizes;
    }

    public AdPosition getPosition() {
        return position;
    }

    public void setPosition(AdPosition position) {
        this.position = position;
    }

    public List<String> getMimeTypes() {
        return mimeTypes;
    }

    public void setMimeTypes(List<String> mimeTypes) {
        this.mimeTypes = mimeTypes;
    }

    public List<Integer> getBlockedCreativeTypes() {
        return blockedCreativeTypes;
    }

    public void setBlockedCreativeTypes(List<Integer> blockedCreativeTypes) {
        this.blockedCreativeTypes = blockedCreativeTypes;
    }

    public boolean isTopFrame() {
        return topFrame;
    }

    public void setTopFrame(boolean topFrame) {
        this.topFrame = topFrame;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Banner b)) {
            return false;
        }
        return width == b.width && height == b.height && topFrame == b.topFrame && Objects.equals(sizes, b.sizes)
                && position == b.position && Objects.equals(mimeTypes, b.mimeTypes)
                && Objects.equals(blockedCreativeTypes, b.blockedCreativeTypes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(width, height, sizes, position, mimeTypes, blockedCreativeTypes, topFrame);
    }

    @Override
    public String toString() {
        return "Banner{" + width + "x" + height + ", sizes=" + sizes + ", position=" + position + ", mimeTypes="
                + mimeTypes + ", blockedCreativeTypes=" + blockedCreativeTypes + ", topFrame=" + topFrame + "}";
    }
}
