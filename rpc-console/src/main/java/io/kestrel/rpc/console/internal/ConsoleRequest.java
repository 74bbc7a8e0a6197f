package io.kestrel.rpc.console.internal;

import java.util.Map;

/**
 * One HTTP request as the console's router sees it: copied off the event loop's buffers, so it can be
 * answered on the console's worker thread.
 */
record ConsoleRequest(String method, String path, Map<String, String> query, String host, String origin,
        String authorization, String contentType, String body) {
}
