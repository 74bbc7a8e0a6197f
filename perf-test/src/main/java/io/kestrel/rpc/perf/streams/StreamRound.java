package io.kestrel.rpc.perf.streams;

/**
 * One system's figures in one round. Times and CPU in nanoseconds; bytes on the client's socket, both directions.
 *
 * @param system the system's name
 * @param round the round, from 1
 * @param messageBytes bytes of one serialized message (before framing)
 * @param feedMessages messages of the server-streaming workload
 * @param feedNanos its wall time, first stream opened to last stream ended
 * @param feedBytes bytes on the wire during it
 * @param feedClientCpu CPU time of the client JVM during it (-1: not known)
 * @param feedServerCpu CPU time of the server JVM during it (-1: not known)
 * @param trips round trips of the ping-pong workload
 * @param pingNanos its wall time
 * @param pingBytes bytes on the wire during it
 * @param pingClientCpu CPU time of the client JVM during it
 * @param pingServerCpu CPU time of the server JVM during it
 * @param unaryP99Alone unary p99 in microseconds with no stream running (NaN: no unary probe)
 * @param unaryP99WithStream the same beside a server stream on the same connection (NaN: no unary probe)
 */
record StreamRound(String system, int round, int messageBytes, long feedMessages, long feedNanos, long feedBytes,
        long feedClientCpu, long feedServerCpu, long trips, long pingNanos, long pingBytes, long pingClientCpu,
        long pingServerCpu, double unaryP99Alone, double unaryP99WithStream) {
    /** CSV header matching {@link #csv()}. */
    static final String CSV_HEADER = "system,round,message_bytes,feed_messages,feed_ms,feed_msgs_per_s,"
            + "feed_wire_bytes_per_msg,feed_client_cpu_us_per_msg,feed_server_cpu_us_per_msg,trips,ping_ms,"
            + "ping_trips_per_s,ping_wire_bytes_per_msg,ping_client_cpu_us_per_trip,ping_server_cpu_us_per_trip,"
            + "unary_p99_us_alone,unary_p99_us_with_stream";

    double feedRate() {
        return feedMessages * 1e9 / feedNanos;
    }

    double pingRate() {
        return trips * 1e9 / pingNanos;
    }

    /** Wire bytes per server-streamed message, both directions (credit and window frames included). */
    double feedWirePerMessage() {
        return (double) feedBytes / feedMessages;
    }

    /** Wire bytes per ping-pong message (two per round trip), both directions. */
    double pingWirePerMessage() {
        return (double) pingBytes / (2 * trips);
    }

    static double perUnit(long cpuNanos, long units) {
        return cpuNanos < 0 ? Double.NaN : cpuNanos / 1000.0 / units;
    }

    String csv() {
        return String.join(",", system, Integer.toString(round), Integer.toString(messageBytes),
                Long.toString(feedMessages), fmt(feedNanos / 1e6), fmt(feedRate()), fmt(feedWirePerMessage()),
                fmt(perUnit(feedClientCpu, feedMessages)), fmt(perUnit(feedServerCpu, feedMessages)),
                Long.toString(trips), fmt(pingNanos / 1e6), fmt(pingRate()), fmt(pingWirePerMessage()),
                fmt(perUnit(pingClientCpu, trips)), fmt(perUnit(pingServerCpu, trips)), fmt(unaryP99Alone),
                fmt(unaryP99WithStream));
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : String.format(java.util.Locale.ROOT, "%.3f", v);
    }
}
