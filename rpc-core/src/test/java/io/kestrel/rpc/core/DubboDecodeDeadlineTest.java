package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ProtocolConfig;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.DecodeBudget;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.internal.dubbo.DubboPipeline;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The dubbo port stops decoding a request's arguments at its decode deadline, part-way through a value, as the
 * native port stops at the caller's deadline ({@code DecodeBudgetTest} for the serializers alone). A dubbo
 * caller's own timeout travels after the arguments, so the port's deadline
 * ({@value DubboPipeline#DECODE_DEADLINE_PROPERTY}) bounds the decoding instead; with it out of reach the same
 * request is decoded to its end (the mutation check: the deadline is what stops it).
 */
class DubboDecodeDeadlineTest {
    /** Values in the argument: close to maxElements, so that decoding takes long enough to be cut. */
    private static final int COUNT = 900_000;
    private static final int STATUS_OK = 20;
    private static final int STATUS_SERVER_TIMEOUT = 31;
    private static final Pattern VALUES = Pattern.compile("ms of decoding and (\\d+) values");

    private final PortAttacker.Dubbo attacker = new PortAttacker.Dubbo();
    private final Serializer hessian2 = TestRuntimes.serializer("hessian2", ClassAllowlist.withDefaults());
    private final byte[] request = request();

    private byte[] request() {
        List<Long> big = new ArrayList<>(COUNT);
        for (int i = 0; i < COUNT; i++) {
            big.add(1_000_000L + i);
        }
        return attacker.echoObject(7, big);
    }

    /**
     * A deadline of 20 ms passes while the 900,000 values are decoded: the answer is "server timeout", naming the
     * setting, after some values and far from all. The code is warmed up first (a cold first decode can spend the
     * 20 ms loading classes); an attempt whose deadline passed before the first value (a pause of this busy JVM)
     * shows nothing and is made again, up to five times.
     */
    @Test
    void aDeadlinePassingMidValueStopsTheArgumentsThere() throws Exception {
        try (RpcRuntime warm = provider(600_000)) {
            for (int i = 0; i < 2; i++) {
                assertEquals(STATUS_OK, call(warm).status);
            }
        }
        try (RpcRuntime provider = provider(20)) {
            List<String> attempts = new ArrayList<>();
            for (int attempt = 0; attempt < 5; attempt++) {
                Answer answer = call(provider);
                assertEquals(STATUS_SERVER_TIMEOUT, answer.status, "not cut by the deadline: " + answer.text);
                assertTrue(answer.text.contains("-D" + DubboPipeline.DECODE_DEADLINE_PROPERTY), answer.text);
                Matcher m = VALUES.matcher(answer.text);
                assertTrue(m.find(), answer.text);
                long decoded = Long.parseLong(m.group(1));
                assertTrue(decoded < COUNT, "every value was decoded before stopping: " + answer.text);
                if (decoded > DecodeBudget.DEADLINE_CHECK_INTERVAL) {
                    return; // cut part-way
                }
                attempts.add("stopped after " + decoded + " values");
            }
            throw new AssertionError("never cut part-way: " + attempts);
        }
    }

    /** The mutation check: with the deadline out of reach, the same request is decoded and answered. */
    @Test
    void withTheDeadlineOutOfReachTheSameRequestIsDecodedToItsEnd() throws Exception {
        try (RpcRuntime provider = provider(600_000)) {
            Answer answer = call(provider);
            assertEquals(STATUS_OK, answer.status, answer.text);
        }
    }

    private static RpcRuntime provider(long deadlineMillis) {
        System.setProperty(DubboPipeline.DECODE_DEADLINE_PROPERTY, Long.toString(deadlineMillis));
        try {
            return TestRuntimes.echoProvider(TestRuntimes.loopback().name(ProtocolConfig.DUBBO)
                    .serialization("hessian2").build());
        } finally {
            System.clearProperty(DubboPipeline.DECODE_DEADLINE_PROPERTY);
        }
    }

    private record Answer(int status, String text) {
    }

    /** Sends the request on a new connection and reads its answer (its text when it is an error). */
    private Answer call(RpcRuntime provider) throws IOException {
        try (Socket s = new Socket("127.0.0.1", provider.boundPort())) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(request);
            s.getOutputStream().flush();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] header = new byte[16];
            in.readFully(header);
            int status = header[3] & 0xff;
            byte[] body = new byte[ByteBuffer.wrap(header).getInt(12)];
            in.readFully(body);
            String text = status == STATUS_OK ? "" : hessian2.readSequence(new ByteArrayInputStream(body),
                    DecodeBudget.defaults(), values -> String.valueOf(values.read(String.class)));
            return new Answer(status, text);
        }
    }
}
