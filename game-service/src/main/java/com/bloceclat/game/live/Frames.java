package com.bloceclat.game.live;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import org.jboss.logging.Logger;

import com.bloceclat.game.config.GameConfig;

import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.arc.ClientProxy;
import io.quarkus.websockets.next.CloseReason;
import io.quarkus.websockets.next.WebSocketConnection;
import io.smallrye.mutiny.TimeoutException;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;

/**
 * Every frame a match socket is sent, answers and live updates alike, goes through here: sent without waiting for the
 * socket to take it, so that a client that stopped reading holds back nothing (neither other sockets' updates nor its
 * own socket's next frames, which would otherwise wait unread in a queue without bound while the server goes on
 * reading them). Frames to one socket keep their order (one connection's writes are queued in order); a frame its
 * socket has not taken within {@code bloc.live.send-timeout} closes that socket (its page reconnects and gets the state
 * again), so what waits for a stalled client is bounded by that time.
 * <p>
 * A socket endpoint's injected connection is a proxy of a session-scoped bean, usable only while that socket's
 * callback runs; the completions here run later, on other threads, so the connection itself is kept instead.
 */
@Singleton
public class Frames {

    private static final Logger LOG = Logger.getLogger(Frames.class);

    private final MeterRegistry metrics;
    private final GameConfig.Live config;

    /**
     * Sockets being closed by this class, until their close has ended: sent nothing more, closed and counted once.
     */
    private final Set<String> closing = ConcurrentHashMap.newKeySet();

    @Inject
    public Frames(MeterRegistry metrics, GameConfig.Live config) {
        this.metrics = metrics;
        this.config = config;
    }

    /** Sends the frame unless its socket is being closed; never waits. */
    public void send(WebSocketConnection socket, String frame) {
        WebSocketConnection c = ClientProxy.unwrap(socket);
        if (closing.contains(c.id())) {
            return;
        }
        timed(c, c.sendText(frame));
    }

    /** Writes without waiting: a write not taken within the send timeout closes the socket ({@link #undelivered}). */
    private void timed(WebSocketConnection c, Uni<Void> write) {
        write.ifNoItem().after(config.sendTimeout()).fail().subscribe().with(sent -> {
        }, failure -> undelivered(c, failure));
    }

    /**
     * Pings the socket, a write like any frame: one not taken within {@code bloc.live.send-timeout} closes the socket
     * ({@link SocketPings}).
     */
    public void ping(WebSocketConnection socket) {
        WebSocketConnection c = ClientProxy.unwrap(socket);
        if (c.isClosed() || closing.contains(c.id())) {
            return;
        }
        timed(c, c.sendPing(Buffer.buffer()));
    }

    /** Sends the error, then closes the socket (a socket refused at its opening); waits for neither. */
    static void refuse(WebSocketConnection socket, int status, String message) {
        WebSocketConnection c = ClientProxy.unwrap(socket);
        c.sendText(new ServerFrame.Error(status, message).toJson()).onFailure().recoverWithNull()
                .chain(() -> c.close()).subscribe().with(closed -> {
                }, failure -> LOG.debugf("Refused socket %s not closed cleanly: %s", c.id(), failure.getMessage()));
    }

    /** Whether the socket is being closed here (stalled or flooding): nothing more is sent to it. */
    public boolean closing(String connectionId) {
        return closing.contains(connectionId);
    }

    /**
     * Closes the socket once, counted in {@code game.live.closed{reason}}. The close frame waits behind the frames its
     * client has not taken: if it has not gone within the send timeout, the TCP connection is closed under it, so a
     * socket is gone at most twice the send timeout after it was found stalled or flooding. Whether this call began
     * the close (false: it was closed or being closed already).
     */
    public boolean close(WebSocketConnection socket, String reason, CloseReason why) {
        WebSocketConnection c = ClientProxy.unwrap(socket);
        String id = c.id();
        if (!c.isClosed() && closing.add(id)) {
            metrics.counter("game.live.closed", "reason", reason).increment();
            c.close(why).ifNoItem().after(config.sendTimeout()).fail().subscribe().with(
                    closed -> closing.remove(id),
                    f -> {
                        LOG.debugf("Socket %s not closed cleanly (%s): its connection dropped", id, f.getMessage());
                        SocketClients.drop(c);
                        closing.remove(id);
                    });
            return true;
        }
        return false;
    }

    /**
     * Drops the socket's TCP connection at once, without a closing handshake, counted in
     * {@code game.live.closed{reason}} as {@link #close} counts: for a client whose close frame would wait behind what
     * it does not read while it goes on making the server write (its pings, each answered by the WebSocket layer).
     * Whether this call began the drop.
     */
    public boolean drop(WebSocketConnection socket, String reason) {
        WebSocketConnection c = ClientProxy.unwrap(socket);
        String id = c.id();
        if (!c.isClosed() && closing.add(id)) {
            metrics.counter("game.live.closed", "reason", reason).increment();
            SocketClients.drop(c).onComplete(dropped -> closing.remove(id));
            return true;
        }
        return false;
    }

    private void undelivered(WebSocketConnection c, Throwable failure) {
        if (failure instanceof TimeoutException) {
            if (!c.isClosed() && !closing(c.id())) {
                LOG.infof("Socket %s took no frame for %s: closed, its page reconnects", c.id(), config.sendTimeout());
            }
            close(c, "stalled", CloseReason.NORMAL);
        } else {
            LOG.debugf("Frame not delivered to %s: %s", c.id(), failure.getMessage());
            metrics.counter("game.live.skipped", "reason", "failed").increment();
        }
    }
}
