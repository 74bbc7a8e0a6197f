package io.kestrel.rpc.transport;

/**
 * Response status codes in the frame header. Numbering follows Apache Dubbo's where a code exists
 * there; {@link #PAYLOAD_TOO_LARGE} is ours.
 */
public final class Status {
    public static final byte OK = 20;
    public static final byte CLIENT_TIMEOUT = 30;
    public static final byte SERVER_TIMEOUT = 31;
    public static final byte BAD_REQUEST = 40;
    public static final byte BAD_RESPONSE = 50;
    public static final byte SERVICE_NOT_FOUND = 60;
    /** The service method threw; the body carries the exception. */
    public static final byte SERVICE_ERROR = 70;
    public static final byte SERVER_ERROR = 80;
    public static final byte CLIENT_ERROR = 90;
    /** Business pool and queue full, or the provider is shutting down: the call did not run. */
    public static final byte SERVER_BUSY = 100;
    /** The request or the response body exceeds a payload limit; the call did not complete. */
    public static final byte PAYLOAD_TOO_LARGE = 110;
    /**
     * On an event frame from the provider: it is shutting down, send nothing more on this connection.
     * The consumer answers with an event frame carrying the same status once it has stopped sending.
     */
    public static final byte GOING_AWAY = 120;

    private Status() {
    }

    public static String name(byte status) {
        return switch (status) {
            case OK -> "OK";
            case CLIENT_TIMEOUT -> "CLIENT_TIMEOUT";
            case SERVER_TIMEOUT -> "SERVER_TIMEOUT";
            case BAD_REQUEST -> "BAD_REQUEST";
            case BAD_RESPONSE -> "BAD_RESPONSE";
            case SERVICE_NOT_FOUND -> "SERVICE_NOT_FOUND";
            case SERVICE_ERROR -> "SERVICE_ERROR";
            case SERVER_ERROR -> "SERVER_ERROR";
            case CLIENT_ERROR -> "CLIENT_ERROR";
            case SERVER_BUSY -> "SERVER_BUSY";
            case PAYLOAD_TOO_LARGE -> "PAYLOAD_TOO_LARGE";
            case GOING_AWAY -> "GOING_AWAY";
            default -> "UNKNOWN(" + status + ")";
        };
    }
}
