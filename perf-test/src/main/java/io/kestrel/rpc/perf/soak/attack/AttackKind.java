package io.kestrel.rpc.perf.soak.attack;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The attacks the soak can run, by their command-line names. */
public enum AttackKind {
    SLOW_READER("slow-reader", "pipelines large echo requests and never reads the answers; reconnects when closed"),
    AMPLIFY("amplify", "pipelines tiny requests naming an undefined method reference (longer error answers),"
            + " never reads; reconnects when closed"),
    GREEDY("greedy", "pipelines large requests beyond the memory budget at a fixed rate and reads the answers"),
    TRICKLE("trickle", "many connections each trickling one partial frame a byte at a time; reopened when cut"),
    FLOOD("flood", "opens more connections than max-connections-per-host, holds them briefly, again and again"),

    // the per-port attacks (issue 34): one at a time against each protocol's port of a provider with default limits
    GENERIC_REFS("generic-refs", true, "4 connections x 50 pipelined $invoke calls whose argument is a list holding"
            + " the same list twice, 40 levels deep (a few hundred bytes on the wire); answers read"),
    GENERIC_NUMBER("generic-number", true, "2 connections x 20 pipelined $invoke calls of exists(long) with the"
            + " number \"1e100000000\"; answers read"),
    HANDSHAKE("handshake-probe", true, "fresh connections sending an uncredentialed first heartbeat (native: asking"
            + " about the restricted service) 10 times a second; an answer naming a service is a disclosure"),
    HEARTBEAT_FLOOD("heartbeat-flood", true, "pipelines the smallest heartbeats (native 18 bytes, dubbo 17), never"
            + " reads; reconnects when closed"),
    UNKNOWN_FLOOD("unknown-method-flood", true, "pipelines calls of a service the provider lacks, never reads;"
            + " reconnects when closed"),
    HALF_SENT("half-sent", true, "64 connections each announcing an 8 MiB body, sending half of it, then a byte"
            + " every 250 ms; reconnects when cut"),
    HESSIAN_NAMES("hessian-array-names", true, "hessian2 requests, each with 300 typed arrays of names never sent"
            + " before (deep arrays of real classes, arrays of missing and of refused classes); answers read");

    public final String label;
    public final String description;
    /** Whether it runs in the per-port soak (alone, against each protocol's port, limits at their defaults). */
    public final boolean perPort;

    AttackKind(String label, String description) {
        this(label, false, description);
    }

    AttackKind(String label, boolean perPort, String description) {
        this.label = label;
        this.perPort = perPort;
        this.description = description;
    }

    /**
     * Parses {@code all} (the attacks beside the mixed load), {@code ports} (every per-port attack), {@code none}
     * or a comma-separated list of labels; per-port attacks and the others cannot be mixed in one run.
     *
     * @throws IllegalArgumentException naming the unknown entry
     */
    public static List<AttackKind> parseList(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("all") || t.equals("ports")) {
            return java.util.Arrays.stream(values()).filter(k -> k.perPort == t.equals("ports")).toList();
        }
        if (t.isEmpty() || t.equals("none")) {
            return List.of();
        }
        Set<AttackKind> chosen = EnumSet.noneOf(AttackKind.class);
        for (String part : t.split(",")) {
            String name = part.trim();
            AttackKind found = null;
            for (AttackKind k : values()) {
                if (k.label.equals(name)) {
                    found = k;
                }
            }
            if (found == null) {
                throw new IllegalArgumentException("--attacks: unknown attack '" + name + "'; use all, ports, none or a"
                        + " list of " + labels() + " (beside the mixed load) or of " + labels(true) + " (per port)");
            }
            chosen.add(found);
        }
        if (chosen.stream().map(k -> k.perPort).distinct().count() > 1) {
            throw new IllegalArgumentException("--attacks: the per-port attacks (" + labels(true) + ") run one at a"
                    + " time against each port with default limits, the others together beside the mixed load with"
                    + " small limits; run them in two runs");
        }
        return new ArrayList<>(chosen);
    }

    /** The labels of the attacks beside the mixed load, comma-separated. */
    public static String labels() {
        return labels(false);
    }

    /** The labels of the per-port attacks ({@code perPort}) or of the others, comma-separated. */
    public static String labels(boolean perPort) {
        StringBuilder sb = new StringBuilder();
        for (AttackKind k : values()) {
            if (k.perPort == perPort) {
                sb.append(sb.isEmpty() ? "" : ",").append(k.label);
            }
        }
        return sb.toString();
    }
}
