package io.kestrel.rpc.transport;

import io.kestrel.rpc.api.RpcException;
import io.kestrel.rpc.api.RpcTimeoutException;
import io.kestrel.rpc.api.TransportException;
import io.kestrel.rpc.api.serialization.Serializer;
import io.kestrel.rpc.transport.internal.EventLoops;
import io.kestrel.rpc.transport.internal.PendingCalls;
import io.kestrel.rpc.transport.internal.WriteQueue;
import io.kestrel.rpc.transport.spi.ClientOptions;
import io.kestrel.rpc.transport.spi.MethodRef;
import io.kestrel.rpc.transport.spi.RpcRequest;
import io.netty.channel.Channel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * The one TCP connection from this process to one provider address, multiplexing every call to it:
 * requests from many threads interleave, responses are matched to pending calls by request id.
 *
 * <p>A facade over one-job parts: {@link ConnectionState} (its life), {@link PendingCalls} (calls
 * waiting for answers, with their deadlines: a timeout fails the call with
 * {@link RpcTimeoutException}), a {@link WriteQueue} (writes from many threads, one flush per
 * batch), {@code ProviderFacts} (the handshake query) and {@code ConnectionLifecycle} (connect attempts, and
 * the handler last in the pipeline built by {@link ClientTransport#bootstrap}: state changes, reconnect). When the connection closes, every pending call fails at once with {@link TransportException} and
 * it is reopened in the background with exponential backoff (100 ms doubling to 5 s). While it is
 * not {@link ConnectionState#READY}, calls fail at once with {@link ConnectionUnavailableException}
 * (not sent). Thread-safe.
 */
public final class Connection implements AutoCloseable {
    // package-private: read and set by ConnectionLifecycle, on the channel's event loop
    final ClientTransport transport;
    final String host;
    final int port;
    private final String address;
    private final ClientOptions options;
    private final String openedBy;
    final PendingCalls pending;
    /** Counted down once the first connect attempt's outcome (handshake included) is known. */
    final CountDownLatch firstAttemptDone = new CountDownLatch(1);
    private volatile ConnectionState state = ConnectionState.CONNECTING;
    volatile Channel channel;
    volatile WriteQueue<Object> writes; // pending calls (urgent), and stream frames after their call
    volatile String lastError = "none";
    /** The handshake query: services wanted and the provider's answers. */
    final ProviderFacts facts;
    /** Shares taken with {@link ClientTransport#acquire}; guarded by the transport's map. */
    int users;
    /** Told after every state change ({@link #onStateChange}). */
    private final StateListeners stateListeners = new StateListeners();
    /** Checks and sends calls, and opens streams. */
    private final CallSender sender;

    Connection(ClientTransport transport, String host, int port, ClientOptions options, String openedBy,
            String service) {
        this.facts = new ProviderFacts(options.dubbo(), service); // asked for in the first heartbeat
        this.openedBy = openedBy;
        this.transport = transport;
        this.host = host;
        this.port = port;
        this.address = host + ":" + port;
        this.options = options;
        this.sender = new CallSender(this);
        this.pending = new PendingCalls(transport.timer, options.connection().maxPendingCalls(), this::route);
        new ConnectionLifecycle(this).connect();
    }

    /** "host:port". */
    public String address() {
        return address;
    }

    /** The settings it was opened with. */
    public ClientOptions options() {
        return options;
    }

    /** Who opened it, for messages. */
    String openedBy() {
        return openedBy;
    }

    public ConnectionState state() {
        return state;
    }

    /**
     * Runs {@code listener} after every change of {@link #state()}, on the thread that changed it (often this
     * connection's event loop: it must be short and must not block). {@link #removeStateListener} stops it.
     */
    public void onStateChange(Runnable listener) {
        stateListeners.add(listener);
    }

    public void removeStateListener(Runnable listener) {
        stateListeners.remove(listener);
    }

    /** Connected and accepting calls (false while the provider is shutting down). */
    public boolean isConnected() {
        Channel ch = channel;
        return state == ConnectionState.READY && ch != null && ch.isActive();
    }

    /**
     * What the provider said in its handshake on the current (or last) channel about the services
     * {@linkplain #want wanted} (and, from a provider that discloses its services, the others the caller
     * may call): service key text to the attributes it asks consumers to agree on; without an entry for
     * a service it did not tell (an earlier version, or one this caller may not call); null before the
     * first handshake. A new object after every reconnect and every answer, so callers may cache what
     * they derive from it by identity.
     */
    public Map<String, Map<String, String>> providerFacts() {
        return facts.current();
    }

    /**
     * Asks the provider for {@code service}'s facts on this channel and every later one. The future
     * completes once a handshake answer to a heartbeat that asked for it arrived (at once on the dubbo
     * protocol, which has no handshake).
     */
    public CompletableFuture<Void> want(String service) {
        return facts.want(service, channel);
    }

    /** Why the last connection attempt failed or the connection last closed ("none" if it never did). */
    public String lastError() {
        return lastError;
    }

    /** Calls sent and not yet answered or timed out. */
    public int pendingCalls() {
        return pending.size();
    }

    /** Streams open now on this connection (their calls count in {@link #pendingCalls()} too). */
    public int openStreams() {
        return pending.streams().size();
    }

    /** Waits (up to the connect timeout) until the first connection attempt has finished. */
    public void awaitFirstConnect() {
        try {
            firstAttemptDone.await(options.connection().connectTimeout().toMillis() + 1000, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Sends a call. The future completes with the decoded result, or exceptionally with the
     * provider's exception or an {@link RpcException} saying what went wrong. Never blocks on the
     * network; serializes the arguments on the calling thread.
     */
    public CompletableFuture<Object> invoke(RpcRequest request) {
        return invoke(request, null);
    }

    /**
     * As {@link #invoke(RpcRequest)}; {@code listener} (null: none) is also told the outcome, exactly
     * once: on the thread that completes the call, or on this thread at once when it is not sent. A
     * caller that only needs the outcome spends no dependent stage on it (see {@code ClusterInvoker}).
     */
    public CompletableFuture<Object> invoke(RpcRequest request, BiConsumer<Object, Throwable> listener) {
        return invoke(request.method(), request.serializer(), request.arguments(), request.attachments(),
                request.timeoutMillis(), request.returnType(), listener);
    }

    /**
     * As {@link #invoke(RpcRequest, BiConsumer)}, from the parts of a request (see {@link RpcRequest}): a
     * call that is sent costs one object here, its pending call, which is also the future returned.
     */
    public CompletableFuture<Object> invoke(MethodRef methodRef, Serializer serializer, Object[] arguments,
            Map<String, String> attachments, int timeoutMillis, Class<?> returnType,
            BiConsumer<Object, Throwable> listener) {
        return invoke(methodRef, serializer, arguments, attachments, timeoutMillis, returnType, listener, null);
    }

    /**
     * As above, for a blocking caller that will wait in {@code caller}'s {@link ThreadlessWait#await}: the answer is
     * decoded and the call completed on that thread, not the I/O thread (null: as above). Streams are never answered
     * on the caller's thread.
     */
    public CompletableFuture<Object> invoke(MethodRef methodRef, Serializer serializer, Object[] arguments,
            Map<String, String> attachments, int timeoutMillis, Class<?> returnType,
            BiConsumer<Object, Throwable> listener, ThreadlessWait caller) {
        return sender.invoke(methodRef, serializer, arguments, attachments, timeoutMillis, returnType, listener,
                caller);
    }

    /**
     * Cancels the open streams of this connection on its event loop, waiting (up to 2 s) until it did: their CANCEL
     * frames are then queued on the event loop ahead of a close that follows, so the provider reads the reason.
     */
    void cancelStreams(String reason) {
        Channel ch = channel;
        if (ch == null) {
            pending.streams().cancelAll(reason);
        } else {
            EventLoops.runAndWait(ch, () -> pending.streams().cancelAll(reason), 2000);
        }
    }

    private String route() {
        Channel ch = channel;
        return (ch == null ? "?" : ch.localAddress()) + " -> " + address;
    }

    /**
     * Stops taking new calls now and closes once the calls already sent are answered or timed out
     * (used when a provider leaves the registry: its answers to calls in flight still count).
     */
    public void closeWhenIdle() {
        if (moveTo(ConnectionState.RETIRING)) {
            // closed on the channel's own event loop, where closing does not block; a close of the
            // channel meanwhile closes it too (see ConnectionLifecycle)
            pending.whenEmpty(() -> {
                Channel ch = channel;
                try {
                    if (ch != null) {
                        ch.eventLoop().execute(this::close);
                        return;
                    }
                } catch (RejectedExecutionException e) {
                    // the event loop is shut down: close from here
                }
                close();
            }, TimeUnit.SECONDS.toMillis(60));
        }
    }

    /** Closes the connection for good; pending calls fail at once. */
    @Override
    public void close() {
        if (!moveTo(ConnectionState.CLOSED)) {
            return;
        }
        Channel ch = channel;
        if (ch != null) {
            ch.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        pending.failAll("the connection to " + address + " was closed by this consumer");
        firstAttemptDone.countDown();
    }

    /** Moves to {@code next} if the state machine allows it from the current state, and tells the listeners. */
    boolean moveTo(ConnectionState next) {
        synchronized (this) {
            if (!state.canMoveTo(next)) {
                return false;
            }
            state = next;
        }
        stateListeners.tell(address);
        return true;
    }

    @Override
    public String toString() {
        return "Connection{" + address + ", " + state + ", pending=" + pending.size() + "}";
    }

}
