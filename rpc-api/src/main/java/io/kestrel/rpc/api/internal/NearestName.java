package io.kestrel.rpc.api.internal;

import java.util.Collection;
import java.util.Optional;

/**
 * "Did you mean ...": the known name closest to a misspelt one, when it is a typo or two away (at
 * most 1 edit for names up to 5 letters, 2 beyond; an edit inserts, deletes or replaces a letter, or
 * swaps two neighbours). Not part of the public API.
 */
public final class NearestName {
    private NearestName() {
    }

    /** The closest of {@code known} to {@code wanted} within a typo or two, else empty. */
    public static Optional<String> closest(String wanted, Collection<String> known) {
        if (wanted == null) {
            return Optional.empty();
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            int d = distance(wanted, k);
            if (d < bestDistance) {
                best = k;
                bestDistance = d;
            }
        }
        return best != null && bestDistance > 0 && bestDistance <= (wanted.length() <= 5 ? 1 : 2)
                ? Optional.of(best) : Optional.empty();
    }

    /** "; did you mean 'x'?" for a near miss, else "". */
    public static String suggestion(String wanted, Collection<String> known) {
        return closest(wanted, known).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /** Edits (insert, delete, replace, swap two neighbours) turning {@code a} into {@code b}. */
    public static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
