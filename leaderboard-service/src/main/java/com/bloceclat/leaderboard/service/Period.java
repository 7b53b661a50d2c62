package com.bloceclat.leaderboard.service;

import java.time.Clock;
import java.time.DayOfWeek;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.TemporalAdjusters;

/** The span of a leaderboard, in UTC: every record, today's, or this ISO week's (from Monday). */
public enum Period {
    ALL, TODAY, WEEK;

    /** The first day of the period after the one that starts on {@code start} (all time has none). */
    public LocalDate next(LocalDate start) {
        return switch (this) {
            case ALL -> throw new IllegalArgumentException("all time has no next period");
            case TODAY -> start.plusDays(1);
            case WEEK -> start.plusWeeks(1);
        };
    }

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
