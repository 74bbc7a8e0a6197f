package io.kestrel.rpc.core.internal.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.PermissionDeniedException;
import io.kestrel.rpc.api.RemoteInvocationException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.UnauthenticatedException;
import io.kestrel.rpc.api.ClassNotAllowedException;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.Status.Retry;
import org.junit.jupiter.api.Test;

/** Which failures failover may send to another provider (moved here from the transport's StatusTest). */
class FailoverRuleTest {
    @Test
    void theFailoverRule() {
        // certainly did not run: safe anywhere
        assertEquals(Retry.SAFE, FailoverRule.retryOf(new ConnectionUnavailableException("not sent")));
        assertEquals(Retry.SAFE, FailoverRule.retryOf(Status.toException(Status.SERVER_BUSY.code(), "busy")));
        assertEquals(Retry.SAFE, FailoverRule.retryOf(Status.toException(Status.SERVICE_NOT_FOUND.code(), "gone")));
        // may have run: only for idempotent references
        assertEquals(Retry.IF_IDEMPOTENT, FailoverRule.retryOf(new RpcTimeoutException("late")));
        assertEquals(Retry.IF_IDEMPOTENT, FailoverRule.retryOf(new TransportException("lost in flight")));
        // ran, or retrying cannot help
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new PayloadTooLargeException("big")));
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new BadRequestException("bad")));
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new ClassNotAllowedException("refused")));
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new RemoteInvocationException("X", "y", "z")));
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new IllegalStateException("thrown by the service")));
    }

    @Test
    void refusedCallersAreNeverSentAgain() {
        // from CallerAuthTest: another provider would refuse the same caller
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new PermissionDeniedException("x")));
        assertEquals(Retry.NEVER, FailoverRule.retryOf(new UnauthenticatedException("x")));
    }
}
