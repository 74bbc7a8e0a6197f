package io.kestrel.rpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.slf4j.event.EventRecordingLogger;
import org.slf4j.event.Level;
import org.slf4j.event.SubstituteLoggingEvent;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.SubstituteLogger;

/** The lines a registry writes about its own records, recorded by slf4j's event-recording logger. */
class RegistrationLogTest {
    private final Queue<SubstituteLoggingEvent> events = new ConcurrentLinkedQueue<>();
    private final RegistrationLog log = new RegistrationLog("zookeeper://zk:2181", 30_000,
            new EventRecordingLogger(new SubstituteLogger("registry", events, false), events));

    private List<String> lines(Level level) {
        return events.stream().filter(e -> e.getLevel() == level)
                .map(e -> MessageFormatter.arrayFormat(e.getMessage(), e.getArgumentArray()).getMessage()).toList();
    }

    @Test
    void aLostSessionNamesTheRecordsThatAreGoneAndEachRestoreIsLogged() {
        log.suspended(2);
        log.lost(List.of("p1", "p2"));
        log.restored("p1");
        List<String> warnings = lines(Level.WARN);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("2 provider record(s) stay registered while the session lives (up to"
                + " 30000 ms)"), warnings.get(0));
        assertTrue(warnings.get(1).contains("this process is no longer registered; its 2 provider record(s) are gone"),
                warnings.get(1));
        assertTrue(warnings.get(1).endsWith("[p1, p2]"), warnings.get(1));
        assertEquals(List.of("Provider p1 registered again in zookeeper://zk:2181 (new session)"), lines(Level.INFO));
    }

    @Test
    void aConsumerOnlyRegistrySaysNothingAboutRecords() {
        log.suspended(0);
        log.lost(List.of());
        assertTrue(lines(Level.WARN).stream().noneMatch(l -> l.contains("record")), lines(Level.WARN).toString());
    }

    @Test
    void backgroundErrorsDuringAPartitionAreOneLinePerKindPerInterval() {
        for (int i = 0; i < 100; i++) {
            log.backgroundError("Background operation retry gave up", new KeeperException.ConnectionLossException());
        }
        log.backgroundError("Background exception was not retry-able", new KeeperException.SessionExpiredException());
        List<String> warnings = lines(Level.WARN);
        assertEquals(2, warnings.size(), "one line per kind: " + warnings);
        assertTrue(warnings.get(0).contains("retry gave up") && warnings.get(0).contains("ConnectionLoss"),
                warnings.get(0));
        assertTrue(events.stream().filter(e -> e.getLevel() == Level.WARN).allMatch(e -> e.getThrowable() == null),
                "no stack trace at WARN");
    }
}
