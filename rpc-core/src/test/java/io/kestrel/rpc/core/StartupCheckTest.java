package io.kestrel.rpc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.config.ReferenceConfig;
import io.kestrel.rpc.api.config.ServiceConfig;
import io.kestrel.rpc.api.serialization.Serialization;
import io.kestrel.rpc.api.serialization.SerializationOptions;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.api.serialization.TypeProblem;
import io.kestrel.rpc.core.internal.shared.SignatureCheck;
import io.kestrel.rpc.testing.LogCapture;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Types a serialization cannot carry fail at export and refer, naming the type, the method and the
 * serializations that can, instead of failing every call later; the same services work with those.
 */
class StartupCheckTest {
    public interface NicknameService {
        Optional<String> nickname(String userId);
    }

    public record Profile(String name, int age) implements Serializable {
    }

    public interface ProfileService {
        CompletableFuture<List<Profile>> profiles(int page);
    }

    /** Serializable itself, but one of its fields is not. */
    public static class Settings implements Serializable {
        private static final long serialVersionUID = 1L;
        public Preferences preferences = new Preferences();
    }

    public static class Preferences {
        public String theme = "dark";
    }

    public interface SettingsService {
        String save(String userId, Settings settings);
    }

    private static RpcRuntime provider(String serialization) {
        return RpcRuntime.builder().protocol(TestRuntimes.loopback().serialization(serialization).build()).build();
    }

    @Test
    void optionalWithHessian2IsRefusedAtExportNamingTheMethodAndTheAlternatives() {
        try (RpcRuntime p = provider("hessian2")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.export(ServiceConfig.builder(NicknameService.class, id -> Optional.of("ada")).build()));
            assertEquals("Cannot export " + NicknameService.class.getName() + " with serialization hessian2:"
                    + " java.util.Optional does not implement java.io.Serializable, which hessian2 requires (use null for"
                    + " \"no value\" in a remote signature) (method nickname(String) return value). Every call carrying"
                    + " such a value would fail. Use fastjson2, fory or kryo instead (serialization on the service, or on"
                    + " the protocol when the service sets none), or change the type", e.getMessage());
        }
    }

    @Test
    void optionalWithJavaIsRefusedAtReferButFineWithFory() {
        try (RpcRuntime p = provider("fory"); RpcRuntime consumer = RpcRuntime.builder().build()) {
            p.export(ServiceConfig.builder(NicknameService.class, id -> Optional.of("ada")).build());
            ReferenceConfig.Builder<NicknameService> ref = ReferenceConfig.builder(NicknameService.class)
                    .url("127.0.0.1:" + p.boundPort()).timeout(Duration.ofSeconds(5));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> consumer.refer(ref.serialization("java").build()));
            assertTrue(e.getMessage().startsWith("Cannot refer " + NicknameService.class.getName() + " with serialization"
                    + " java: java.util.Optional does not implement java.io.Serializable, which java requires"), e.getMessage());
            assertTrue(e.getMessage().contains("(serialization on the reference)"), e.getMessage());
            assertEquals(Optional.of("ada"), consumer.refer(ref.serialization("fory").build()).nickname("u1"));
        }
    }

    @Test
    void recordInsideAnAsyncResultIsRefusedWithHessian2AndFstButWorksWithJava() throws Exception {
        ProfileService impl = page -> CompletableFuture.completedFuture(List.of(new Profile("Ada", 36)));
        for (String serialization : List.of("hessian2", "fst")) {
            try (RpcRuntime p = provider(serialization)) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> p.export(ServiceConfig.builder(ProfileService.class, impl).build()));
                assertTrue(e.getMessage().contains(Profile.class.getName() + " is a record, which " + serialization
                        + " cannot create") && e.getMessage().contains("(method profiles(int) return value)"), e.getMessage());
            }
        }
        try (RpcRuntime p = provider("java"); RpcRuntime consumer = RpcRuntime.builder().build()) {
            p.export(ServiceConfig.builder(ProfileService.class, impl).build());
            ProfileService s = consumer.refer(ReferenceConfig.builder(ProfileService.class).url("127.0.0.1:" + p.boundPort())
                    .serialization("java").timeout(Duration.ofSeconds(5)).build());
            assertEquals(List.of(new Profile("Ada", 36)), s.profiles(0).get());
        }
    }

    @Test
    void nonSerializableFieldOfAParameterIsRefusedWithItsPath() {
        try (RpcRuntime p = provider("java")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.export(ServiceConfig.builder(SettingsService.class, (id, s) -> "ok").build()));
            assertTrue(e.getMessage().contains(Preferences.class.getName() + " does not implement java.io.Serializable,"
                    + " which java requires (add implements java.io.Serializable) (method save(String, Settings) parameter 2,"
                    + " field Settings.preferences)"), e.getMessage());
            assertTrue(e.getMessage().contains("Use fastjson2, fory or kryo instead"), e.getMessage());
        }
    }

    /** A plug-in serialization that knows Preferences only sometimes fails: a warning, not a refusal. */
    @Test
    void aTypeThatOnlySometimesFailsIsLoggedAsAWarningAndStartupGoesOn() throws Exception {
        Serialization warnsAboutPreferences = new Serialization() {
            @Override
            public byte id() {
                return 99;
            }

            @Override
            public String name() {
                return "picky";
            }

            @Override
            public boolean supportsCompatibleMode() {
                return false;
            }

            @Override
            public Optional<TypeProblem> problemWith(Class<?> type) {
                return type == Preferences.class ? Optional.of(TypeProblem.warning(type.getName()
                        + " loses its theme under picky when the theme is blank")) : Optional.empty();
            }

            @Override
            public Serializer create(SerializationOptions options) {
                throw new UnsupportedOperationException();
            }
        };
        try (LogCapture log = new LogCapture()) {
            SignatureCheck.check(SettingsService.class, warnsAboutPreferences, "export", "serialization on the service");
            List<String> lines = log.warnings(SignatureCheck.class.getName());
            assertEquals(1, lines.size(), String.valueOf(lines));
            assertTrue(lines.get(0).contains("export of " + SettingsService.class.getName() + " with picky: "
                    + Preferences.class.getName() + " loses its theme under picky when the theme is blank (method"
                    + " save(String, Settings) parameter 2, field Settings.preferences); calls carrying such values may"
                    + " fail. Alternatives: "), lines.get(0));
        }
    }
}
