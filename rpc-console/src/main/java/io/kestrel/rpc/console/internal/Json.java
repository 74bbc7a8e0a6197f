package io.kestrel.rpc.console.internal;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON the console speaks: writes maps, lists, strings, numbers, booleans and null, and reads them back
 * (objects as {@link LinkedHashMap}, arrays as {@link ArrayList}, numbers as {@link Long} when integral and in
 * range, else {@link BigDecimal}). Input is bounded by the request body limit; nesting by {@link #MAX_DEPTH}.
 */
final class Json {
    static final int MAX_DEPTH = 64;

    private Json() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    private static void write(Object v, StringBuilder out) {
        if (v == null) {
            out.append("null");
        } else if (v instanceof String s) {
            string(s, out);
        } else if (v instanceof Boolean || v instanceof Integer || v instanceof Long || v instanceof Short
                || v instanceof Byte || v instanceof BigDecimal || v instanceof java.math.BigInteger) {
            out.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            out.append(Double.isFinite(d) ? v.toString() : "null");
        } else if (v instanceof Map<?, ?> m) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string(String.valueOf(e.getKey()), out);
                out.append(':');
                write(e.getValue(), out);
            }
            out.append('}');
        } else if (v instanceof Iterable<?> list) {
            out.append('[');
            boolean first = true;
            for (Object o : list) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(o, out);
            }
            out.append(']');
        } else if (v instanceof Object[] array) {
            write(List.of(array), out);
        } else {
            string(v.toString(), out);
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                // < > & escaped too, so no JSON text can close a script element or open markup if ever embedded
                case '<', '>', '&', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int) c));
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** @throws IllegalArgumentException naming the position of the first problem */
    static Object read(String text) {
        Reader r = new Reader(text);
        r.space();
        Object v = r.value(0);
        r.space();
        if (r.pos != text.length()) {
            throw r.error("unexpected text after the value");
        }
        return v;
    }

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nested deeper than " + MAX_DEPTH);
            }
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{':
                    return object(depth);
                case '[':
                    return array(depth);
                case '"':
                    return string();
                case 't':
                    return literal("true", Boolean.TRUE);
                case 'f':
                    return literal("false", Boolean.FALSE);
                case 'n':
                    return literal("null", null);
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return number();
                    }
                    throw error("unexpected character '" + c + "'");
            }
        }

        private Map<String, Object> object(int depth) {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;
            space();
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                space();
                if (peek() != '"') {
                    throw error("expected a quoted member name");
                }
                String key = string();
                space();
                expect(':');
                space();
                map.put(key, value(depth + 1));
                space();
                char c = next();
                if (c == '}') {
                    return map;
                }
                if (c != ',') {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array(int depth) {
            List<Object> list = new ArrayList<>();
            pos++;
            space();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                space();
                list.add(value(depth + 1));
                space();
                char c = next();
                if (c == ']') {
                    return list;
                }
                if (c != ',') {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            pos++;
            StringBuilder b = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return b.toString();
                }
                if (c == '\\') {
                    char e = next();
                    switch (e) {
                        case '"', '\\', '/' -> b.append(e);
                        case 'b' -> b.append('\b');
                        case 'f' -> b.append('\f');
                        case 'n' -> b.append('\n');
                        case 'r' -> b.append('\r');
                        case 't' -> b.append('\t');
                        case 'u' -> {
                            if (pos + 4 > s.length()) {
                                throw error("truncated \\u escape");
                            }
                            try {
                                b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                            } catch (NumberFormatException ex) {
                                throw error("bad \\u escape");
                            }
                            pos += 4;
                        }
                        default -> throw error("bad escape \\" + e);
                    }
                } else if (c < 0x20) {
                    throw error("control character in a string");
                } else {
                    b.append(c);
                }
            }
        }

        private Object number() {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String t = s.substring(start, pos);
            try {
                BigDecimal d = new BigDecimal(t);
                if (t.indexOf('.') < 0 && t.indexOf('e') < 0 && t.indexOf('E') < 0) {
                    try {
                        return d.longValueExact();
                    } catch (ArithmeticException tooLarge) {
                        return d;
                    }
                }
                return d;
            } catch (NumberFormatException e) {
                throw error("bad number '" + t + "'");
            }
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected word");
            }
            pos += word.length();
            return value;
        }

        void space() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            if (pos >= s.length()) {
                throw error("unexpected end of input");
            }
            return s.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private void expect(char c) {
            if (next() != c) {
                throw error("expected '" + c + "'");
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("invalid JSON at character " + pos + ": " + what);
        }
    }
}
