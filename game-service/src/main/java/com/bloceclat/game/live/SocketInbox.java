package com.bloceclat.game.live;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

import org.jboss.logging.Logger;

import com.bloceclat.common.limits.TokenBucket;

/**
 * One match socket's frames as they are read, before any is handled: each is counted against the socket's rates here,
 * on the thread that read it, and one that is let through waits in a queue of at most {@code capacity} frames, handled
 * one at a time in the order read, each by a task of its own on a worker thread, once the socket has been
 * {@link #open opened} (its state sent).
 * <p>
 * Why not the WebSocket layer's own queue: Quarkus reads a connection's frames into a queue of its own without bound
 * and runs the endpoint's callbacks from it one after the other, {@code @OnOpen} first, so a rate checked in a
 * callback bounded what was handled, not what was read. A client flooding frames while its socket's state was read
 * from a slow database, or faster than a worker took them, filled the replica's memory with frames none of which had
 * been counted. Here a frame is counted when it is read, and what waits per socket is bounded.
 */
final class SocketInbox {

    private static final Logger LOG = Logger.getLogger(SocketInbox.class);

    private final Executor worker;
    private final int capacity;
    private final TokenBucket frames;
    private final TokenBucket controls;

    private final Deque<Runnable> waiting = new ArrayDeque<>();
    /** The socket's state has been sent: its frames may be handled. */
    private boolean open;
    /** A worker is handling this inbox's frames. */
    private boolean handling;
    /** The socket has closed: nothing more is handled, what waits is dropped. */
    private boolean closed;

    SocketInbox(Executor worker, int capacity, double framesPerSecond, int burst, long nowNanos) {
        this.worker = worker;
        this.capacity = capacity;
        this.frames = new TokenBucket(framesPerSecond, burst, nowNanos);
        this.controls = new TokenBucket(framesPerSecond, burst, nowNanos);
    }

    /** The rate of the client's frames. */
    TokenBucket frames() {
        return frames;
    }

    /**
     * The rate of the client's pings and pongs, apart from its frames' (a browser's answers to the server's pings take
     * nothing from its moves).
     */
    TokenBucket controls() {
        return controls;
    }

    /**
     * Queues a frame's handling; false when {@code capacity} frames wait already (the frame is not queued). A frame
     * offered after the socket closed is dropped, and true is answered: there is nobody left to tell.
     */
    synchronized boolean offer(Runnable handling) {
        if (closed) {
            return true;
        }
        if (waiting.size() >= capacity) {
            return false;
        }
        waiting.add(handling);
        startIfIdle();
        return true;
    }

    /** The socket's state has been sent: the frames read before, and every later one, are handled from now on. */
    synchronized void open() {
        open = true;
        startIfIdle();
    }

    /** The socket has closed: what waits is dropped, and the frame being handled is the last. */
    synchronized void close() {
        closed = true;
        waiting.clear();
    }

    /** Frames waiting to be handled, the one being handled left out. */
    synchronized int waiting() {
        return waiting.size();
    }

    private void startIfIdle() {
        if (open && !closed && !handling && !waiting.isEmpty()) {
            handling = true;
            worker.execute(this::handleNext);
        }
    }

    /**
     * Handles the frame that waits first, then hands the next to the worker pool as a task of its own: a socket whose
     * inbox never empties (a client sending at its rate frames that each take long) holds a worker only a frame at a
     * time, behind every task queued meanwhile, not for good.
     */
    private void handleNext() {
        Runnable next;
        synchronized (this) {
            next = closed ? null : waiting.poll();
            if (next == null) {
                handling = false;
                return;
            }
        }
        try {
            next.run();
        } catch (RuntimeException e) {
            // a frame's handling answers its own errors; this is a bug, and must not stop the socket's next frames
            LOG.errorf(e, "A socket's frame failed unanswered");
        }
        synchronized (this) {
            handling = false;
            startIfIdle();
        }
    }
}
