package com.bloceclat.game.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import com.bloceclat.engine.Level;

class DailyChallengeTest {

    private static final byte[] SECRET = "dev-and-test-daily-secret-not-for-prod".getBytes(StandardCharsets.UTF_8);
    private static final LocalDate DAY = LocalDate.parse("2026-12-01");

    @Test
    void theDaysSeedIsTheHmacOfTheSecretTheDayAndTheLevel() {
        // openssl: echo -n "2026-12-01:EASY" | openssl dgst -sha256 -hmac "<secret>", first 8 bytes 37196137a49b9681
        assertEquals(0x37196137a49b9681L, DailyChallenge.seed(SECRET, DAY, Level.EASY));
        assertEquals(3970311438116558465L, DailyChallenge.seed(SECRET, DAY, Level.EASY));
        assertEquals(DailyChallenge.seed(SECRET, DAY, Level.HARD), DailyChallenge.seed(SECRET.clone(), DAY, Level.HARD));
    }

    @Test
    void everyLevelAndDayHasItsOwnSeedAndAnotherSecretGivesOthers() {
        Set<Long> seeds = new HashSet<>();
        for (int d = 0; d < 60; d++) {
            for (Level level : Level.values()) {
                assertTrue(seeds.add(DailyChallenge.seed(SECRET, DAY.plusDays(d), level)), DAY.plusDays(d) + " " + level);
            }
        }
        byte[] other = "another-secret-of-enough-length".getBytes(StandardCharsets.UTF_8);
        for (Level level : Level.values()) {
            assertNotEquals(DailyChallenge.seed(SECRET, DAY, level), DailyChallenge.seed(other, DAY, level));
        }
    }

    @Test
    void theDaysSeedIsNotTheOldPublicFormula() {
        for (Level level : Level.values()) {
            long old = UUID.nameUUIDFromBytes(("bloc-eclat daily " + DAY + " " + level.name())
                    .getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
            assertNotEquals(old, DailyChallenge.seed(SECRET, DAY, level));
        }
    }

    @Test
    void theDayIsTheClocksUtcDateAndIsOverAtTheNextUtcMidnight() {
        Clock lateEvening = Clock.fixed(Instant.parse("2026-12-01T23:59:59Z"), ZoneOffset.ofHours(5));
        DailyChallenge daily = new DailyChallenge(() -> new String(SECRET, StandardCharsets.UTF_8), lateEvening);
        assertEquals(DAY, daily.today());
        assertEquals(false, daily.over(DAY));
        assertEquals(true, daily.over(DAY.minusDays(1)));
        assertEquals(Instant.parse("2026-12-02T00:00:00Z"), DailyChallenge.end(DAY));
        DailyChallenge next = new DailyChallenge(() -> new String(SECRET, StandardCharsets.UTF_8),
                Clock.fixed(Instant.parse("2026-12-02T00:00:00Z"), ZoneOffset.UTC));
        assertEquals(true, next.over(DAY));
        assertEquals(daily.seed(DAY, Level.MEDIUM), next.seed(DAY, Level.MEDIUM));
    }

    /**
     * docs/game-service.md "Daily": white space around the secret is stripped, so a secret file or Secret written with
     * a trailing newline (`echo`, an editor) deals the same days as without it, and replicas configured either way
     * agree on every day's pieces.
     */
    @Test
    void whiteSpaceAroundTheSecretDealsTheSameDays() {
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T12:00:00Z"), ZoneOffset.UTC);
        String secret = new String(SECRET, StandardCharsets.UTF_8);
        long plain = new DailyChallenge(() -> secret, clock).seed(DAY, Level.HARD);
        assertEquals(plain, new DailyChallenge(() -> secret + "\n", clock).seed(DAY, Level.HARD));
        assertEquals(plain, new DailyChallenge(() -> "  " + secret + " \r\n", clock).seed(DAY, Level.HARD));
        assertEquals(DailyChallenge.seed(SECRET, DAY, Level.HARD), plain);
    }

    @Test
    void aShortSecretIsRefusedAtStart() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new DailyChallenge(() -> "too-short", Clock.systemUTC()));
        assertTrue(e.getMessage().startsWith("bloc.daily.secret (BLOC_DAILY_SECRET) must be at least 16"),
                e.getMessage());
    }

    /** The k8s template's placeholder is public: a service started with it refuses to start (it used to accept it). */
    @Test
    void theTemplatesPlaceholderIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> new DailyChallenge(() -> "REPLACE-ME-base64-32-random-bytes", Clock.systemUTC()));
        assertTrue(e.getMessage().contains("placeholder"), e.getMessage());
    }
}
