package com.bloceclat.game.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.Executor;

import org.junit.jupiter.api.Test;

/** A socket's inbox alone, its worker a queue this test runs by hand. */
class SocketInboxTest {

    /** Tasks given to the worker, run when the test says. */
    private final Deque<Runnable> worker = new ArrayDeque<>();
    private final Executor executor = worker::add;
    private final List<String> handled = new ArrayList<>();

    private SocketInbox inbox(int capacity) {
        return new SocketInbox(executor, capacity, 10, 20, 0);
    }

    private void runWorker() {
        while (!worker.isEmpty()) {
            worker.poll().run();
        }
    }

    @Test
    void framesReadBeforeTheOpenWaitForItThenAreHandledInTheOrderRead() {
        SocketInbox inbox = inbox(5);
        assertTrue(inbox.offer(() -> handled.add("a")));
        assertTrue(inbox.offer(() -> handled.add("b")));
        assertTrue(worker.isEmpty(), "nothing handled before the socket's state is sent");
        inbox.open();
        inbox.offer(() -> handled.add("c"));
        assertEquals(1, worker.size(), "one worker task at a time for a socket");
        runWorker();
        assertEquals(List.of("a", "b", "c"), handled);
        assertEquals(0, inbox.waiting());
    }

    @Test
    void atCapacityAFrameIsRefusedNotQueued() {
        SocketInbox inbox = inbox(2);
        assertTrue(inbox.offer(() -> handled.add("a")));
        assertTrue(inbox.offer(() -> handled.add("b")));
        assertFalse(inbox.offer(() -> handled.add("c")));
        assertEquals(2, inbox.waiting());
        inbox.open();
        runWorker();
        assertEquals(List.of("a", "b"), handled);
        assertTrue(inbox.offer(() -> handled.add("d")), "room again once handled");
        runWorker();
        assertEquals(List.of("a", "b", "d"), handled);
    }

    /**
     * Each frame is a worker task of its own, queued behind the tasks given to the pool meanwhile: a socket whose
     * inbox never empties does not hold a worker for good (it did, handling frame after frame in one task).
     */
    @Test
    void eachFrameIsATaskOfItsOwnBehindTheOthersOfThePool() {
        SocketInbox inbox = inbox(5);
        inbox.offer(() -> handled.add("a"));
        inbox.offer(() -> handled.add("b"));
        inbox.open();
        assertEquals(1, worker.size());
        worker.add(() -> handled.add("another socket's"));
        worker.poll().run();
        assertEquals(List.of("a"), handled);
        assertEquals(2, worker.size(), "b's task queued behind the other");
        runWorker();
        assertEquals(List.of("a", "another socket's", "b"), handled);
    }

    @Test
    void aCloseDropsWhatWaitsAndStopsTheHandlingAfterTheCurrentFrame() {
        SocketInbox inbox = inbox(5);
        inbox.open();
        inbox.offer(() -> {
            handled.add("a");
            inbox.close();
        });
        inbox.offer(() -> handled.add("b"));
        runWorker();
        assertEquals(List.of("a"), handled);
        assertTrue(inbox.offer(() -> handled.add("c")), "after the close a frame is dropped, not refused");
        runWorker();
        assertEquals(List.of("a"), handled);
        assertEquals(0, inbox.waiting());
    }

    @Test
    void aFrameThatFailsDoesNotStopTheNext() {
        SocketInbox inbox = inbox(5);
        inbox.open();
        inbox.offer(() -> {
            throw new IllegalStateException("a bug");
        });
        inbox.offer(() -> handled.add("b"));
        runWorker();
        assertEquals(List.of("b"), handled);
    }
}
