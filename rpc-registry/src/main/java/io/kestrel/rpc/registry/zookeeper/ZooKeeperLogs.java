package io.kestrel.rpc.registry.zookeeper;

import java.lang.reflect.Method;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps ZooKeeper's and Curator's own logging to errors, so a registry start logs Kestrel's one line instead
 * of ZooKeeper's banner, its environment and a stack trace per failed connection attempt. Kestrel's
 * registry logs every state change itself (connected, suspended, lost, reconnected), and Curator's background
 * errors rate-limited ({@link RegistrationLog}); Curator logs only the first connection problem of an outage
 * ({@value #CURATOR_FIRST_ISSUE_ONLY}, unless the application set it).
 *
 * <p>Set {@value #VERBOSE_PROPERTY}{@code =true} to leave those loggers alone. A level the application set
 * itself for {@code org.apache.zookeeper} or {@code org.apache.curator} is also left alone. Works with the
 * SLF4J bindings slf4j-simple (before the loggers are first used), Logback, Log4j 2 and java.util.logging,
 * through reflection, so none of them is a dependency; with any other binding it does nothing.
 */
final class ZooKeeperLogs {
    /** System property: {@code true} keeps ZooKeeper's and Curator's full logging. */
    static final String VERBOSE_PROPERTY = "kestrel.rpc.registry.verbose";
    /**
     * Curator's switch (read once, when its client class loads) that logs only the first connection problem of an
     * outage at ERROR and the rest at DEBUG; without it a partition logs an ERROR with a stack trace per retry.
     */
    static final String CURATOR_FIRST_ISSUE_ONLY = "curator-log-only-first-connection-issue-as-error-level";
    /**
     * Logger and the level it is kept to. ServerCnxn is silenced: a probe ({@code srvr}) that reaches a server
     * still loading its database makes ZooKeeper log a NullPointerException about closing that socket.
     */
    private static final Map<String, String> LOGGERS = Map.of("org.apache.zookeeper", "ERROR",
            "org.apache.curator", "ERROR", "org.apache.zookeeper.server.ServerCnxn", "OFF");
    private static final Logger log = LoggerFactory.getLogger(ZooKeeperLogs.class);
    /** java.util.logging keeps loggers weakly; these are held so their level sticks. */
    private static final List<java.util.logging.Logger> JUL = new CopyOnWriteArrayList<>();
    private static volatile boolean done;

    private ZooKeeperLogs() {
    }

    static synchronized void quietUnlessVerbose() {
        if (done) {
            return;
        }
        done = true;
        if (Boolean.getBoolean(VERBOSE_PROPERTY)) {
            return;
        }
        if (System.getProperty(CURATOR_FIRST_ISSUE_ONLY) == null) {
            System.setProperty(CURATOR_FIRST_ISSUE_ONLY, "true");
        }
        for (Map.Entry<String, String> e : LOGGERS.entrySet()) {
            String name = e.getKey();
            try {
                quiet(name, e.getValue());
            } catch (ReflectiveOperationException | RuntimeException | LinkageError ex) {
                log.debug("Could not lower the level of logger {}: {}", name, ex.toString());
            }
        }
    }

    private static boolean simpleLoggerFileSets(String key) {
        try (java.io.InputStream in = ClassLoader.getSystemResourceAsStream("simplelogger.properties")) {
            if (in == null) {
                return false;
            }
            java.util.Properties p = new java.util.Properties();
            p.load(in);
            return p.getProperty(key) != null;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static void quiet(String name, String levelName) throws ReflectiveOperationException {
        String simpleKey = "org.slf4j.simpleLogger.log." + name;
        if (System.getProperty(simpleKey) == null && !simpleLoggerFileSets(simpleKey)) {
            System.setProperty(simpleKey, levelName.toLowerCase(java.util.Locale.ROOT)); // read at logger creation
        }
        Object logger = LoggerFactory.getLogger(name);
        String type = logger.getClass().getName();
        if (type.equals("ch.qos.logback.classic.Logger")) {
            if (logger.getClass().getMethod("getLevel").invoke(logger) == null) {
                Class<?> level = Class.forName("ch.qos.logback.classic.Level", true, logger.getClass().getClassLoader());
                Object error = level.getField(levelName).get(null);
                logger.getClass().getMethod("setLevel", level).invoke(logger, error);
            }
        } else if (type.startsWith("org.apache.logging.slf4j.")) {
            ClassLoader cl = logger.getClass().getClassLoader();
            Class<?> level = Class.forName("org.apache.logging.log4j.Level", true, cl);
            Class<?> configurator = Class.forName("org.apache.logging.log4j.core.config.Configurator", true, cl);
            Method setLevel = configurator.getMethod("setLevel", String.class, level);
            setLevel.invoke(null, name, level.getField(levelName).get(null));
        } else if (type.equals("org.slf4j.jul.JDK14LoggerAdapter")) {
            java.util.logging.Logger jul = java.util.logging.Logger.getLogger(name);
            if (jul.getLevel() == null) {
                jul.setLevel(levelName.equals("OFF") ? java.util.logging.Level.OFF : java.util.logging.Level.SEVERE);
                JUL.add(jul);
            }
        }
    }
}
