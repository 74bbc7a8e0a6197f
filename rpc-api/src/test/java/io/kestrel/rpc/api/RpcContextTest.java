package io.kestrel.rpc.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kestrel.rpc.api.internal.ServerContext;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The incoming call's context (attachments, caller, deadline, response attachments) on its thread and across hops. */
class RpcContextTest {
    @Test
    void wrapCarriesTheIncomingCallToAnotherThreadAndPutsBackThatThreadsOwn() throws Exception {
        Map<String, String> response = new ConcurrentHashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Object previous = ServerContext.enter(Map.of("trace", "t1"), "10.0.0.1:5000", deadline, () -> response);
            CompletableFuture<String> seen;
            try {
                seen = CompletableFuture.supplyAsync(() -> {
                    RpcContext ctx = RpcContext.current();
                    ctx.setResponseAttachment("answered-on", "pool");
                    return ctx.getAttachment("trace") + " " + ctx.getRemoteAddress() + " " + (ctx.remainingMillis() <= 2000);
                }, RpcContext.wrap(pool));
                assertEquals("t1 10.0.0.1:5000 true", seen.get(5, TimeUnit.SECONDS));
            } finally {
                ServerContext.restore(previous);
            }
            assertEquals(Map.of("answered-on", "pool"), response);
            // the pool thread is back to its own, empty context
            assertEquals("null null true", CompletableFuture.supplyAsync(() -> {
                RpcContext ctx = RpcContext.current();
                return ctx.getAttachment("trace") + " " + ctx.getRemoteAddress() + " "
                        + (ctx.remainingMillis() == RpcContext.NO_DEADLINE);
            }, pool).get(5, TimeUnit.SECONDS));
        } finally {
            pool.shutdownNow();
        }
        assertNull(RpcContext.current().getRemoteAddress());
        assertEquals(RpcContext.NO_DEADLINE, RpcContext.current().remainingMillis());
    }

    @Test
    void aResponseAttachmentOutsideAnInvocationIsRefusedWithWhy() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> RpcContext.current().setResponseAttachment("k", "v"));
        assertTrue(e.getMessage().contains("setResponseAttachment(\"k\") outside an invocation"), e.getMessage());
    }

    @Test
    void attachmentLimitsNameTheirSetting() {
        Map<String, String> big = Map.of("k", "x".repeat(AttachmentLimits.maxBytes()));
        String problem = AttachmentLimits.violation(big, "the request of svc#m");
        assertTrue(problem.startsWith("the request of svc#m carries " + (AttachmentLimits.maxBytes() + 1)
                + " bytes of attachments, over the limit of 65536 bytes (-Dkestrel.rpc.attachments.maxBytes=N"), problem);
        assertNull(AttachmentLimits.violation(Map.of("k", "v"), "x"));
    }
}
