package io.kestrel.rpc.registry.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * Tells what listens on a local port: nothing, a ZooKeeper server, or something else. It sends ZooKeeper's
 * four-letter word {@code srvr}: a ZooKeeper answers with its version, says the word is not allowed, or that it
 * is not serving yet (starting); all count as ZooKeeper. Anything else that accepts the connection is described by what it answered.
 */
final class ZooKeeperProbe {
    /** The result of a probe. */
    enum Kind { NOTHING, ZOOKEEPER, OTHER }

    /** What was found; {@code answer} describes an OTHER for messages. */
    record Result(Kind kind, String answer) {
    }

    private static final int TIMEOUT_MS = 1_000;

    private ZooKeeperProbe() {
    }

    static Result probe(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), TIMEOUT_MS);
            s.setSoTimeout(TIMEOUT_MS);
            s.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
            String answer = read(s.getInputStream());
            if (answer.startsWith("Zookeeper version") || answer.contains("not in the whitelist")
                    || answer.contains("not executed") || answer.contains("ZooKeeper instance is not currently serving")) {
                return new Result(Kind.ZOOKEEPER, answer);
            }
            return new Result(Kind.OTHER, answer.isEmpty()
                    ? "it accepted a connection but closed it without answering ZooKeeper's 'srvr'"
                    : "it answered ZooKeeper's 'srvr' with '" + firstLine(answer) + "'");
        } catch (ConnectException e) {
            return new Result(Kind.NOTHING, "");
        } catch (SocketTimeoutException e) {
            return new Result(Kind.OTHER, "it accepted a connection but did not answer ZooKeeper's 'srvr' within "
                    + TIMEOUT_MS + " ms");
        } catch (IOException e) {
            return new Result(Kind.OTHER, "talking to it failed: " + e);
        }
    }

    private static String read(InputStream in) throws IOException {
        byte[] buf = new byte[512];
        int n = 0;
        int r;
        while (n < buf.length && (r = in.read(buf, n, buf.length - n)) > 0) {
            n += r;
        }
        return new String(buf, 0, n, StandardCharsets.ISO_8859_1).strip();
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        String line = nl < 0 ? s : s.substring(0, nl);
        return line.length() > 80 ? line.substring(0, 80) + "..." : line.strip();
    }
}
