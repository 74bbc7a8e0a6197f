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
    FLOOD("flood", "opens more connections than max-connections-per-host, holds them briefly, again and again");

    public final String label;
    public final String description;

    AttackKind(String label, String description) {
        this.label = label;
        this.description = description;
    }

    /**
     * Parses {@code all}, {@code none} or a comma-separated list of labels.
     *
     * @throws IllegalArgumentException naming the unknown entry
     */
    public static List<AttackKind> parseList(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.equals("all")) {
            return List.of(values());
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
                throw new IllegalArgumentException("--attacks: unknown attack '" + name + "'; use all, none or a list of "
                        + labels());
            }
            chosen.add(found);
        }
        return new ArrayList<>(chosen);
    }

    /** The labels, comma-separated. */
    public static String labels() {
        StringBuilder sb = new StringBuilder();
        for (AttackKind k : values()) {
            sb.append(sb.isEmpty() ? "" : ",").append(k.label);
        }
        return sb.toString();
    }
}
