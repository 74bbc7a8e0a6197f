package io.kestrel.rpc.console.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/** The console's page, script and style, read once from the jar; nothing else is served as a file. */
final class StaticPages {
    private static final String BASE = "/io/kestrel/rpc/console/web/";
    private final Map<String, HttpAnswer> pages;

    StaticPages() {
        HttpAnswer index = load("index.html", "text/html; charset=utf-8");
        pages = Map.of("/", index, "/index.html", index,
                "/console.js", load("console.js", "text/javascript; charset=utf-8"),
                "/console.css", load("console.css", "text/css; charset=utf-8"));
    }

    /** The page at {@code path}, or null. */
    HttpAnswer get(String path) {
        return pages.get(path);
    }

    private static HttpAnswer load(String name, String type) {
        try (InputStream in = StaticPages.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("console resource " + BASE + name + " is missing from the jar");
            }
            return new HttpAnswer(200, type, in.readAllBytes(), Map.of());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read console resource " + BASE + name, e);
        }
    }
}
