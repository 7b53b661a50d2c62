package com.bloceclat.leaderboard.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.OffsetDateTime;

import org.junit.jupiter.api.Test;

/** How long the refused trail withholds a message that names a daily game (AdminAuditResource.withheldUntil). */
class RefusedWithholdingTest {

    static final String DAILY = "{\"seedSource\":\"DAILY\",\"daily\":\"2026-12-07\"}";

    @Test
    void aMessageRefusedJustBeforeMidnightIsWithheldThroughTheNextDayWhoseDailyGameItMayBe() {
        // game-service's clock 90 s ahead: at 23:58:45 here it started and ended the 7 December daily game
        OffsetDateTime refused = OffsetDateTime.parse("2026-12-06T23:58:45Z");
        assertEquals(OffsetDateTime.parse("2026-12-08T00:00:00Z"),
                AdminAuditResource.withheldUntil(DAILY, refused, Duration.ofMinutes(2)));
    }

    @Test
    void otherwiseUntilTheMidnightAfterTheRefusal() {
        assertEquals(OffsetDateTime.parse("2026-12-07T00:00:00Z"), AdminAuditResource.withheldUntil(DAILY,
                OffsetDateTime.parse("2026-12-06T12:00:00Z"), Duration.ofMinutes(2)));
        assertNull(AdminAuditResource.withheldUntil("{\"seedSource\":\"SERVER\"}",
                OffsetDateTime.parse("2026-12-06T23:59:00Z"), Duration.ofMinutes(2)));
    }
}
