package com.bloceclat.leaderboard.rest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code more} says a next page has entries only where a caller may ask for it. */
class PagingTest {

    @Test
    void theLastPageACallerMayAskForNeverSaysMore() {
        // page 100 of 100 rows, and a 101st read: page 101 is refused with 400, so there is no more to ask for
        assertFalse(new Params.Paging(100, 100, 100).more(101));
        assertTrue(new Params.Paging(99, 100, 100).more(101));
        assertFalse(new Params.Paging(99, 100, 100).more(100));
        assertFalse(new Params.Paging(0, 20, 100).more(3));
    }
}
