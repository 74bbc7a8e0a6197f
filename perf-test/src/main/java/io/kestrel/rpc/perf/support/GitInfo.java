package io.kestrel.rpc.perf.support;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The commit a report was measured at, asked of {@code git} in the current directory. */
public final class GitInfo {
    private GitInfo() {
    }

    /** The short hash of HEAD, or "unknown" without git or outside a repository. */
    public static String shortHead() {
        String head = git("rev-parse", "--short", "HEAD");
        return head != null ? head : "unknown";
    }

    /** The short hash of HEAD with a note if tracked files have uncommitted changes; "unknown" without git. */
    public static String describeHead() {
        String head = git("rev-parse", "--short", "HEAD");
        if (head == null) {
            return "unknown";
        }
        String status = git("status", "--porcelain", "--untracked-files=no");
        return head + (status != null && !status.isBlank() ? " (working tree has uncommitted changes)" : "");
    }

    /** What {@code git args} prints, trimmed, or null if it fails or takes longer than 5 s. */
    private static String git(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("git");
        cmd.addAll(List.of(args));
        Process p = null;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out;
            try (InputStream in = p.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0) {
                return null;
            }
            return out;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
            }
        }
    }
}
