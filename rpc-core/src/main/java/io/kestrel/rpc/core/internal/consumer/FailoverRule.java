package io.kestrel.rpc.core.internal.consumer;

import io.kestrel.rpc.api.ConnectionUnavailableException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.transport.Status;
import io.kestrel.rpc.transport.Status.Retry;

/**
 * The failover rule, in one place: whether a call that failed with a given failure certainly did not run (not sent,
 * refused unrun), may have run (timeout, connection lost in flight), or ran. A failure raised for a response status
 * has that status's {@link Status#retry()}; failures raised by the consumer itself follow the same meanings. The
 * transport only reports what happened; the cluster decides here what that allows.
 */
final class FailoverRule {
    private static final Status[] STATUSES = Status.values();

    private FailoverRule() {
    }

    static Retry retryOf(Throwable failure) {
        if (failure instanceof ConnectionUnavailableException) {
            return Retry.SAFE; // refused before it was written
        }
        for (Status s : STATUSES) {
            if (failure.getClass() == s.exceptionType()) {
                return s.retry();
            }
        }
        if (failure instanceof TransportException && !(failure instanceof PayloadTooLargeException)) {
            return Retry.IF_IDEMPOTENT; // the connection was lost with the call in flight
        }
        return Retry.NEVER;
    }
}
