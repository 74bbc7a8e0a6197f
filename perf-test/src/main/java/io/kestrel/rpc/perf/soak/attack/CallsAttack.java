package io.kestrel.rpc.perf.soak.attack;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.function.Function;
import java.util.function.LongFunction;

/**
 * Per-port attacks that read their answers: each cycle opens a connection, writes {@code batch} frames at once
 * (all in flight together), reads as many answers (each within {@link #ANSWER_TIMEOUT_MILLIS}) and counts them
 * by the label {@code judge} gives (status, or a disclosure), closes, and pauses {@code pauseMillis}.
 */
final class CallsAttack extends Attack {
    static final int ANSWER_TIMEOUT_MILLIS = 30_000;
    /** The label of an answer that names a service (handshake probe). */
    static final String DISCLOSED = "DISCLOSED";

    private final PortFrames frames;
    private final LongFunction<byte[]> frame;
    private final int batch;
    private final int threads;
    private final long pauseMillis;
    private final Function<PortFrames.Answer, String> judge;
    private final String note;

    CallsAttack(AttackKind kind, AttackTarget target, PortFrames frames, LongFunction<byte[]> frame, int batch,
            int threads, long pauseMillis, Function<PortFrames.Answer, String> judge, String note) {
        super(kind, target);
        this.frames = frames;
        this.frame = frame;
        this.batch = batch;
        this.threads = threads;
        this.pauseMillis = pauseMillis;
        this.judge = judge;
        this.note = note;
    }

    @Override
    int threadCount() {
        return threads;
    }

    @Override
    void cycle() throws IOException {
        Socket s = connect(false, null);
        long openedAt = System.nanoTime();
        try {
            s.setSoTimeout(ANSWER_TIMEOUT_MILLIS);
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 1; i <= batch; i++) {
                all.writeBytes(frame.apply(i));
            }
            s.getOutputStream().write(all.toByteArray());
            requestsWritten(batch);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            for (int i = 0; i < batch && running; i++) {
                answer(judge.apply(frames.read(in, 64 * 1024)));
            }
            release(s);
        } catch (SocketTimeoutException e) {
            answer("no answer within " + ANSWER_TIMEOUT_MILLIS / 1000 + " s");
            release(s);
        } catch (IOException closed) {
            closedByProvider(s, openedAt);
        }
        if (running && pauseMillis > 0) {
            pause(pauseMillis);
        }
    }

    @Override
    boolean met(AttackResult r) {
        return r.answers(DISCLOSED) == 0 && r.answers().keySet().stream().noneMatch(k -> k.startsWith("no answer"));
    }

    @Override
    String note() {
        return note;
    }
}
