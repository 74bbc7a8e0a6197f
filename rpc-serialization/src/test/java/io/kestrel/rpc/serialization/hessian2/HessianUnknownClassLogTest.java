package io.kestrel.rpc.serialization.hessian2;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.caucho.hessian.io.Hessian2Output;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.serialization.ClassAllowlist;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Filter;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Hessian logs each class name it cannot load, with the name; the names are the caller's. 500 streams naming
 * distinct unknown classes of an allowed package (with 900-character names) leave at most a couple of log lines,
 * each cut; with the filter switched off (the mutation check) the same streams log one long line each.
 */
class HessianUnknownClassLogTest {
    private static final String FIXTURE = "io.kestrel.rpc.serialization.fixture";
    private static final int STREAMS = 500;

    private final Hessian2Serializer serializer = (Hessian2Serializer) Serializations.installed().byName("hessian2")
            .create(SerializationOptions.builder().allowlist(ClassAllowlist.withDefaults().allowPackage(FIXTURE)).build());

    /** A typed map whose type is {@code type}: hessian resolves the name when it reads it. */
    private static byte[] typedMap(String type) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Hessian2Output out = new Hessian2Output(bytes);
        out.writeMapBegin(type);
        out.writeMapEnd();
        out.flush();
        return bytes.toByteArray();
    }

    /** The records hessian's factory logger publishes while {@code STREAMS} distinct unknown names are read. */
    private List<LogRecord> logged(String run) throws IOException {
        Logger logger = HessianLogLimit.LOGGERS[0];
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record); // what passed the logger's filter
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            for (int i = 0; i < STREAMS; i++) {
                String name = FIXTURE + ".Missing" + run + i + "x".repeat(900);
                try {
                    serializer.deserialize(new ByteArrayInputStream(typedMap(name)), Object.class);
                } catch (SerializationException e) {
                    // refused or unreadable: what reaches the log is measured
                }
            }
        } finally {
            logger.removeHandler(capture);
        }
        return records;
    }

    @Test
    void unknownClassNamesLeaveAtMostALineEveryTenSecondsEachCut() throws IOException {
        List<LogRecord> records = logged("a");
        assertTrue(records.size() <= 2, records.size() + " lines logged for " + STREAMS + " unknown names");
        for (LogRecord r : records) {
            assertTrue(r.getMessage().length() < HessianLogLimit.MAX_MESSAGE_CHARS + 200, r.getMessage());
        }
    }

    /** The mutation check: without the filter, every unknown name is logged in full. */
    @Test
    void withoutTheFilterEveryUnknownNameIsLoggedInFull() throws IOException {
        Logger logger = HessianLogLimit.LOGGERS[0];
        HessianLogLimit.install();
        Filter filter = logger.getFilter();
        logger.setFilter(null);
        try {
            List<LogRecord> records = logged("b");
            assertTrue(records.size() >= STREAMS, records.size() + " lines logged for " + STREAMS + " unknown names");
            assertTrue(records.get(0).getMessage().length() > 900, records.get(0).getMessage());
        } finally {
            logger.setFilter(filter);
        }
    }
}
