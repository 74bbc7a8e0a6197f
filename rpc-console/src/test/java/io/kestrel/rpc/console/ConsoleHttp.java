package io.kestrel.rpc.console;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A raw HTTP/1.1 client over a socket: the JDK's HttpClient refuses to send some of the requests these tests
 * need (a forged Host header, arbitrary methods).
 */
final class ConsoleHttp {
    record Answer(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private ConsoleHttp() {
    }

    static Answer get(int port, String path) throws IOException {
        return send(port, "GET", path, Map.of(), null);
    }

    static Answer send(int port, String method, String path, Map<String, String> headers, String body)
            throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            StringBuilder req = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            Map<String, String> all = new LinkedHashMap<>();
            all.put("Host", "127.0.0.1:" + port);
            all.put("Connection", "close");
            all.putAll(headers);
            byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
            if (body != null) {
                all.put("Content-Length", Integer.toString(bytes.length));
            }
            all.forEach((k, v) -> req.append(k).append(": ").append(v).append("\r\n"));
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            out.write(req.toString().getBytes(StandardCharsets.UTF_8));
            try {
                out.write(bytes);
                out.flush();
            } catch (IOException closedEarly) {
                // an oversized body may be refused before it is all sent; the answer is still there to read
            }
            return read(s.getInputStream());
        }
    }

    private static Answer read(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        try {
            while ((n = in.read(buf)) > 0) {
                all.write(buf, 0, n);
            }
        } catch (IOException reset) {
            // the console closes after answering; what arrived is the answer
        }
        String text = all.toString(StandardCharsets.UTF_8);
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new IOException("no HTTP answer: '" + text + "'");
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        return new Answer(status, headers, text.substring(end + 4));
    }
}
