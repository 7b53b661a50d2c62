package com.bloceclat.game.live;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

class WatchedMatchesTest {

    private final WatchedMatches watched = new WatchedMatches();
    private final UUID match = UUID.randomUUID();
    private final List<String> sent = new ArrayList<>();

    @Test
    void aStateOlderThanAVersionTheConsumerReadIsNotSentOneAsNewIs() {
        watched.add(match);
        watched.read(match, 1, 7);
        watched.read(match, 1, 5); // records of one game may come out of order: the highest counts
        assertFalse(watched.sendIfCurrent(match, List.of(3, 6), () -> sent.add("behind")));
        assertTrue(watched.sendIfCurrent(match, List.of(3, 7), () -> sent.add("current")));
        assertTrue(watched.sendIfCurrent(match, List.of(0, 9), () -> sent.add("ahead")));
        assertEquals(List.of("current", "ahead"), sent);
    }

    @Test
    void aMatchIsWatchedFromItsFirstSocketToItsLastAndItsVersionsAreForgottenWithIt() {
        watched.read(match, 0, 4); // not watched: not kept
        watched.add(match);
        watched.add(match);
        assertTrue(watched.sendIfCurrent(match, List.of(0, 0), () -> sent.add("a")));
        watched.read(match, 0, 4);
        watched.remove(match);
        assertTrue(watched.watched(match));
        assertFalse(watched.sendIfCurrent(match, List.of(0, 0), () -> sent.add("b")));
        watched.remove(match);
        assertFalse(watched.watched(match));
        watched.add(match);
        assertTrue(watched.sendIfCurrent(match, List.of(0, 0), () -> sent.add("c")));
        assertEquals(List.of("a", "c"), sent);
    }
}
