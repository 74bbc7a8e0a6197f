package io.kestrel.rpc.perf.soak.attack;

import java.util.ArrayList;
import java.util.List;

/** The attacks a soak runs, started together beside the well-behaved load and stopped together. */
public final class Attacks {
    private final List<Attack> attacks = new ArrayList<>();

    private Attacks(List<AttackKind> kinds, AttackTarget target) {
        for (AttackKind k : kinds) {
            attacks.add(switch (k) {
                case SLOW_READER -> NeverReadsAttack.slowReader(target);
                case AMPLIFY -> NeverReadsAttack.amplify(target);
                case GREEDY -> new GreedyAttack(target);
                case TRICKLE -> new TrickleAttack(target);
                case FLOOD -> new FloodAttack(target);
                default -> throw new IllegalArgumentException(k.label + " is a per-port attack (PortAttacks)");
            });
        }
    }

    /** Prepares the attacks (their requests are built here) without starting them. */
    public static Attacks prepare(List<AttackKind> kinds, AttackTarget target) {
        return new Attacks(kinds, target);
    }

    /** Starts every attack on its own thread(s). */
    public void start() {
        attacks.forEach(Attack::start);
    }

    /** Stops every attack and closes its connections (waits at most 5 s per attack). */
    public void stop() throws InterruptedException {
        for (Attack a : attacks) {
            a.stop();
        }
    }

    /** What each attack did so far, in the order given. */
    public List<AttackResult> results() {
        return attacks.stream().map(Attack::result).toList();
    }
}
