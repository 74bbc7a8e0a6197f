package io.kestrel.rpc.perf.soak.attack;

import io.kestrel.rpc.perf.support.BenchmarkService;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One per-port attack ({@link AttackKind#perPort}) against one protocol's port, started and stopped as a
 * whole (the per-port soak runs them one at a time).
 */
public final class PortAttacks {
    /** Levels of the shared-reference list: 3 * 2^40 nodes if every path is followed. */
    static final int BOMB_DEPTH = 40;
    /** Type names per hessian2 request of {@link AttackKind#HESSIAN_NAMES}. */
    static final int NAMES_PER_REQUEST = 300;
    private static final AtomicLong NAMES = new AtomicLong();

    private final Attack attack;

    private PortAttacks(Attack attack) {
        this.attack = attack;
    }

    /** The attack {@code kind} against {@code frames}' protocol on 127.0.0.1:{@code port}; not started. */
    public static PortAttacks prepare(AttackKind kind, PortFrames frames, int port) {
        AttackTarget target = new AttackTarget(new InetSocketAddress("127.0.0.1", port), frames.protocol(), (byte) 0);
        String service = BenchmarkService.class.getName();
        return new PortAttacks(switch (kind) {
            case GENERIC_REFS -> {
                byte[] frame = frames.generic(1, "echo", new String[] {"java.lang.String"},
                        new Object[] {bomb(BOMB_DEPTH)});
                yield new CallsAttack(kind, target, frames, id -> frames.generic(id, "echo",
                        new String[] {"java.lang.String"}, new Object[] {bomb(BOMB_DEPTH)}), 50, 4, 0,
                        PortFrames.Answer::statusName, "frame of " + frame.length + " bytes, depth " + BOMB_DEPTH);
            }
            case GENERIC_NUMBER -> new CallsAttack(kind, target, frames, id -> frames.generic(id, "exists",
                    new String[] {"long"}, new Object[] {"1e100000000"}), 20, 2, 0, PortFrames.Answer::statusName,
                    "\"1e100000000\" for a long");
            case HANDSHAKE -> new CallsAttack(kind, target, frames, id -> id == 1 ? frames.probe(id)
                    : frames.heartbeat(id), 2, 1, 100, a -> a.mentions(service) ? CallsAttack.DISCLOSED
                    : a.statusName() + " (" + a.body().length + " bytes)",
                    "probe asks about " + PortFrames.restricted() + ", then a bare heartbeat");
            case HEARTBEAT_FLOOD -> NeverReadsAttack.flood(kind, target, frames::heartbeat, 4096);
            case UNKNOWN_FLOOD -> NeverReadsAttack.flood(kind, target, frames::unknownMethod, 512);
            case HALF_SENT -> new HalfSentAttack(target, frames);
            case HESSIAN_NAMES -> new CallsAttack(kind, target, frames, id -> frames.typedArrays(id, freshNames()), 10,
                    1, 0, PortFrames.Answer::statusName, NAMES_PER_REQUEST + " new type names per request");
            default -> throw new IllegalArgumentException(kind.label + " runs beside the mixed load (Attacks)");
        });
    }

    /**
     * L0 = ["x"], Lk = [Lk-1, Lk-1]: the same list twice at each level, so a serializer that keeps references
     * writes each level once, while a walk that follows every path meets 3 * 2^k - 1 nodes.
     */
    static List<Object> bomb(int depth) {
        List<Object> level = new ArrayList<>(List.of("x"));
        for (int i = 0; i < depth; i++) {
            List<Object> next = new ArrayList<>(2);
            next.add(level);
            next.add(level);
            level = next;
        }
        return level;
    }

    /** Array type names never sent before: deep arrays of a real class, arrays of missing and of refused classes. */
    private static List<String> freshNames() {
        List<String> names = new ArrayList<>(NAMES_PER_REQUEST);
        for (int i = 0; i < NAMES_PER_REQUEST / 3; i++) {
            long n = NAMES.incrementAndGet();
            int dimensions = 1 + (int) (n % 8);
            names.add("[".repeat(1 + (int) (n % 254)) + "java.lang.String");
            names.add("[".repeat(dimensions) + "io.kestrel.rpc.demo.Missing" + n);
            names.add("[".repeat(dimensions) + "com.attacker.Gadget" + n);
        }
        return names;
    }

    public void start() {
        attack.start();
    }

    public void stop() throws InterruptedException {
        attack.stop();
    }

    public AttackResult result() {
        return attack.result();
    }
}
