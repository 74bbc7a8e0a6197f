package io.kestrel.rpc.console.internal;

import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Answers one request: checks the method, the Host header (a page served by another site that re-points its
 * name at 127.0.0.1 must not read the console: DNS rebinding), and for POSTs the origin, the permission, the
 * token and the content type; then serves a page or a JSON document, or runs an action.
 */
final class ConsoleRouter {
    private static final Logger log = LoggerFactory.getLogger(ConsoleRouter.class);

    private final StaticPages pages;
    private final ConsoleApi api;
    private final CallStats stats;
    private final ConsoleAccess access;
    private final ConsoleInvoker invoker;
    private final boolean loopbackOnly;

    ConsoleRouter(StaticPages pages, ConsoleApi api, CallStats stats, ConsoleAccess access, ConsoleInvoker invoker,
            boolean loopbackOnly) {
        this.pages = pages;
        this.api = api;
        this.stats = stats;
        this.access = access;
        this.invoker = invoker;
        this.loopbackOnly = loopbackOnly;
    }

    HttpAnswer route(ConsoleRequest r) {
        if (!r.method().equals("GET") && !r.method().equals("POST")) {
            return HttpAnswer.error(405, "the console answers only GET and POST, not " + r.method())
                    .withHeader("Allow", "GET, POST");
        }
        if (r.host() == null) {
            return HttpAnswer.error(400, "the request has no Host header");
        }
        if (loopbackOnly && !loopbackName(r.host())) {
            return HttpAnswer.error(403, "Host '" + r.host() + "' is not a loopback name; this console is bound to"
                    + " 127.0.0.1 and answers only requests addressed to localhost or 127.0.0.1 (set rpc.console.host"
                    + " to serve other addresses)");
        }
        try {
            return r.method().equals("GET") ? get(r) : post(r);
        } catch (IllegalArgumentException e) {
            return HttpAnswer.error(400, e.getMessage());
        } catch (io.kestrel.rpc.api.RpcException e) {
            return HttpAnswer.error(502, e.getMessage());
        } catch (RuntimeException e) {
            log.warn("Console request {} {} failed", r.method(), r.path(), e);
            return HttpAnswer.error(500, e.toString());
        }
    }

    private HttpAnswer get(ConsoleRequest r) {
        HttpAnswer page = pages.get(r.path());
        if (page != null) {
            return page;
        }
        return switch (r.path()) {
            case "/api/overview" -> HttpAnswer.json(200, api.overview());
            case "/api/services" -> HttpAnswer.json(200, api.services());
            case "/api/registry" -> HttpAnswer.json(200, api.registry());
            case "/api/connections" -> HttpAnswer.json(200, api.connections());
            case "/api/calls" -> HttpAnswer.json(200, stats.toJson());
            case "/api/methods" -> HttpAnswer.json(200, invoker.methods(required(r.query(), "service")));
            default -> HttpAnswer.error(404, "no such page or document: " + r.path());
        };
    }

    private HttpAnswer post(ConsoleRequest r) {
        ConsoleAccess.Action action = switch (r.path()) {
            case "/api/invoke" -> ConsoleAccess.Action.INVOKE;
            case "/api/offline", "/api/online" -> ConsoleAccess.Action.MUTATE;
            default -> null;
        };
        if (action == null) {
            return HttpAnswer.error(404, "nothing to POST to at " + r.path());
        }
        if (r.origin() != null && !r.origin().equals("null") && !sameOrigin(r.origin(), r.host())) {
            return HttpAnswer.error(403, "cross-origin request from " + r.origin() + " refused");
        }
        ConsoleAccess.Refusal refusal = access.check(action, r.authorization());
        if (refusal != null) {
            HttpAnswer a = HttpAnswer.error(refusal.status(), refusal.message());
            return refusal.status() == 401 ? a.withHeader("WWW-Authenticate", "Bearer realm=\"kestrel-console\"") : a;
        }
        if (r.contentType() == null || !r.contentType().toLowerCase(Locale.ROOT).startsWith("application/json")) {
            return HttpAnswer.error(415, "send the request body as Content-Type: application/json");
        }
        Object body = Json.read(r.body());
        if (!(body instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException("the request body must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> members = (Map<String, Object>) map;
        Supplier<Object> run = switch (r.path()) {
            case "/api/invoke" -> () -> invoker.invoke(members);
            case "/api/offline" -> () -> api.setOnline(members, false);
            default -> () -> api.setOnline(members, true);
        };
        Object result = run.get();
        log.info("Console: {} {}", r.path(), Json.write(members.get("service")));
        return HttpAnswer.json(200, result);
    }

    private static String required(Map<String, String> query, String name) {
        String v = query.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException("the query needs the parameter '" + name + "'");
        }
        return v;
    }

    private static boolean sameOrigin(String origin, String host) {
        return origin.equalsIgnoreCase("http://" + host);
    }

    static boolean loopbackName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int end = h.indexOf(']');
            return end > 0 && h.substring(1, end).equals("::1");
        }
        int colon = h.indexOf(':');
        String name = colon < 0 ? h : h.substring(0, colon);
        return name.equals("localhost") || name.equals("127.0.0.1");
    }
}
