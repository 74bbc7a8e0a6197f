package io.kestrel.rpc.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kestrel.rpc.api.BadRequestException;
import io.kestrel.rpc.api.PayloadTooLargeException;
import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.SerializationException;
import io.kestrel.rpc.api.ServerBusyException;
import io.kestrel.rpc.api.ServiceNotFoundException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StatusTest {
    @Test
    void codesAreTheWireContract() {
        Map<Status, Integer> codes = Map.ofEntries(Map.entry(Status.OK, 20), Map.entry(Status.SERVER_TIMEOUT, 31),
                Map.entry(Status.BAD_REQUEST, 40), Map.entry(Status.UNAUTHENTICATED, 41),
                Map.entry(Status.PERMISSION_DENIED, 42), Map.entry(Status.BAD_RESPONSE, 50),
                Map.entry(Status.SERVICE_NOT_FOUND, 60), Map.entry(Status.SERVICE_ERROR, 70),
                Map.entry(Status.SERVER_ERROR, 80), Map.entry(Status.SERVER_BUSY, 100),
                Map.entry(Status.PAYLOAD_TOO_LARGE, 110), Map.entry(Status.GOING_AWAY, 120),
                Map.entry(Status.CREDENTIAL, 121), Map.entry(Status.TLS_MISMATCH, 122));
        assertEquals(Status.values().length, codes.size(), "every status has its code pinned here");
        codes.forEach((status, code) -> {
            assertEquals(code.byteValue(), status.code());
            assertSame(status, Status.of(code.byteValue()));
        });
        assertNull(Status.of((byte) 30), "client timeout is not a wire status");
        assertEquals("UNKNOWN(-5)", Status.name((byte) -5));
    }

    @Test
    void eachErrorStatusBecomesItsException() {
        assertInstanceOf(ServerBusyException.class, Status.toException(Status.SERVER_BUSY.code(), "m"));
        assertInstanceOf(ServiceNotFoundException.class, Status.toException(Status.SERVICE_NOT_FOUND.code(), "m"));
        assertInstanceOf(BadRequestException.class, Status.toException(Status.BAD_REQUEST.code(), "m"));
        assertInstanceOf(RpcTimeoutException.class, Status.toException(Status.SERVER_TIMEOUT.code(), "m"));
        assertInstanceOf(PayloadTooLargeException.class, Status.toException(Status.PAYLOAD_TOO_LARGE.code(), "m"));
        assertInstanceOf(SerializationException.class, Status.toException(Status.BAD_RESPONSE.code(), "m"));
        assertInstanceOf(io.kestrel.rpc.api.UnauthenticatedException.class,
                Status.toException(Status.UNAUTHENTICATED.code(), "m"));
        assertInstanceOf(io.kestrel.rpc.api.PermissionDeniedException.class,
                Status.toException(Status.PERMISSION_DENIED.code(), "m"));
        RpcException unknown = Status.toException((byte) 99, "odd");
        assertEquals(RpcException.class, unknown.getClass());
        assertEquals("provider answered UNKNOWN(99): odd", unknown.getMessage());
        assertEquals("provider answered SERVER_ERROR: m", Status.toException(Status.SERVER_ERROR.code(), "m").getMessage());
    }

    @Test
    void eachStatusNamesTheExceptionItRaisesForTheFailoverRule() {
        for (Status s : Status.values()) {
            if (s.exceptionType() != null) {
                assertSame(s.exceptionType(), Status.toException(s.code(), "m").getClass(), s.name());
            }
        }
        assertNull(Status.OK.exceptionType());
        assertNull(Status.SERVICE_ERROR.exceptionType());
    }

    @Test
    void providerSideFailuresPickTheirStatus() {
        assertEquals(Status.SERVICE_NOT_FOUND, Status.ofRequestFailure(new ServiceNotFoundException("x")));
        assertEquals(Status.BAD_REQUEST, Status.ofRequestFailure(new BadRequestException("x")));
        assertEquals(Status.BAD_REQUEST, Status.ofRequestFailure(new IndexOutOfBoundsException("x")));
        assertEquals(Status.PAYLOAD_TOO_LARGE, Status.ofRequestFailure(new PayloadTooLargeException("x")));
    }
}
