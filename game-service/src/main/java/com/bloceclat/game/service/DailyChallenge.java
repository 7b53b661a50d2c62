package com.bloceclat.game.service;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import com.bloceclat.common.security.PlaceholderSecrets;
import com.bloceclat.engine.Level;
import com.bloceclat.game.config.IntegrityConfig;

import io.quarkus.runtime.Startup;

/**
 * The daily challenge: one seed per UTC day and level, the same for everyone, that no one can work out in advance.
 *
 * <p>Guarantees: the day's seed is {@code HMAC-SHA256(secret, "<yyyy-mm-dd>:<LEVEL>")}, its first 8 bytes read as a
 * big-endian long ({@link #seed(byte[], LocalDate, Level)}); without {@code bloc.daily.secret} no one can compute a
 * day's seed, and one day's or level's seed tells nothing of another's. game-service shows a daily game's seed to no
 * one before its day is over ({@link #over}), not even to a player whose daily game has ended. Not guaranteed: the
 * pieces themselves are everyone's that day, so whoever played the day's game (as a guest, or on another account)
 * has seen the rounds they reached and can tell others.
 *
 * <p>"Today" is the injected {@link Clock}'s UTC date (tests drive it).
 */
@Startup
@Singleton
public class DailyChallenge {

    /** Shortest secret accepted, in characters. */
    public static final int MIN_SECRET = 16;

    private static final String HMAC = "HmacSHA256";

    private final byte[] secret;
    private final Clock clock;

    @Inject
    public DailyChallenge(IntegrityConfig.Daily config, Clock clock) {
        if (config.secret().strip().length() < MIN_SECRET) {
            throw new IllegalStateException("bloc.daily.secret (BLOC_DAILY_SECRET) must be at least " + MIN_SECRET
                    + " characters, for example `openssl rand -base64 32`: whoever can guess it knows every future "
                    + "day's pieces");
        }
        if (PlaceholderSecrets.placeholder(config.secret())) {
            // the committed Secret templates (k8s/config.yaml) say REPLACE-ME: that text is public
            throw new IllegalStateException("bloc.daily.secret (BLOC_DAILY_SECRET) is still the template's "
                    + "placeholder: set a secret of your own, for example `openssl rand -base64 32`; whoever has read "
                    + "the template knows every future day's pieces");
        }
        this.secret = config.secret().strip().getBytes(StandardCharsets.UTF_8);
        this.clock = clock;
    }

    /** Today's UTC date. */
    public LocalDate today() {
        return LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC);
    }

    /** The seed of {@code day} on {@code level}. */
    public long seed(LocalDate day, Level level) {
        return seed(secret, day, level);
    }

    /** Whether {@code day} is over (UTC): then its seeds may be shown. */
    public boolean over(LocalDate day) {
        return today().isAfter(day);
    }

    /** When {@code day} is over: the next UTC midnight. */
    public static Instant end(LocalDate day) {
        return day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** The seed of {@code day} on {@code level} for {@code secret}: HMAC-SHA256 of "day:LEVEL", its first 8 bytes. */
    public static long seed(byte[] secret, LocalDate day, Level level) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret, HMAC));
            byte[] digest = mac.doFinal((day + ":" + level.name()).getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.wrap(digest, 0, Long.BYTES).getLong();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HMAC-SHA256 is not available", e);
        }
    }
}
