package io.kestrel.rpc.core.internal.generic;

/**
 * Where a node is in a call's trees ("argument 0 (Order order).lines[2].sku"), built as text only for a
 * message: a walk visits up to {@link GenericLimits#maxNodes()} nodes and most are never named. A map key in
 * it is cut at {@value #KEY_CHARS} characters. Immutable.
 */
final class TreePath {
    private static final int KEY_CHARS = 40;

    private final TreePath parent;
    private final String text; // the root's description, a key, or a suffix; null for an index
    private final int index;
    private final char kind; // 'r' root, 'k' key, 'i' index, 's' suffix

    private TreePath(TreePath parent, String text, int index, char kind) {
        this.parent = parent;
        this.text = text;
        this.index = index;
        this.kind = kind;
    }

    static TreePath root(String description) {
        return new TreePath(null, description, 0, 'r');
    }

    /** The value under {@code key} of the map here. */
    TreePath key(Object key) {
        return new TreePath(this, String.valueOf(key), 0, 'k');
    }

    /** The element {@code i} of the list here. */
    TreePath index(int i) {
        return new TreePath(this, null, i, 'i');
    }

    /** This path with {@code suffix} appended, as " (key)". */
    TreePath suffix(String suffix) {
        return new TreePath(this, suffix, 0, 's');
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        append(out);
        return out.toString();
    }

    private void append(StringBuilder out) {
        if (parent != null) {
            parent.append(out);
        }
        switch (kind) {
            case 'k' -> out.append('.').append(text.length() > KEY_CHARS ? text.substring(0, KEY_CHARS) + "..." : text);
            case 'i' -> out.append('[').append(index).append(']');
            default -> out.append(text);
        }
    }
}
