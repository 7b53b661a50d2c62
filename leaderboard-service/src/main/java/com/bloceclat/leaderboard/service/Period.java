package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;

/** The span of a leaderboard, in UTC: every record, today's, or this ISO week's (from Monday). */
public enum Period {
    ALL, TODAY, WEEK;

    /** The UTC day the period starts on (today, or this week's Monday), or null for all time. */
    public LocalDate start(Clock clock) {
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        return switch (this) {
            case ALL -> null;
            case TODAY -> today;
            case WEEK -> today.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
        };
    }

    public String label() {
        return name().toLowerCase();
    }
}
