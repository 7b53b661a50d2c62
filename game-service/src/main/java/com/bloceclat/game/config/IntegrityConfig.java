package com.bloceclat.game.config;

import io.smallrye.config.ConfigMapping;

/**
 * The secrets that make results trustworthy (docs/game-service.md "Seeds" and "Signed results"). Neither has a
 * default outside the {@code %dev} and {@code %test} profiles: a deployment without them does not start (SmallRye
 * Config names the missing key), and one with a malformed value fails at start too ({@code ResultSigner},
 * {@code DailyChallenge}).
 */
public final class IntegrityConfig {

    private IntegrityConfig() {
    }

    /** game-service's key for signing {@code game-finished} (the agreed names, docs/events.md "Signed messages"). */
    @ConfigMapping(prefix = "bloc.signing")
    public interface Signing {
        /** The key's id, carried in every envelope so that verifiers can hold several keys during a rotation. */
        String keyId();

        /** The Ed25519 private key, base64 PKCS#8 DER ({@code BLOC_SIGNING_PRIVATE_KEY}). */
        String privateKey();
    }

    /** The daily challenge. */
    @ConfigMapping(prefix = "bloc.daily")
    public interface Daily {
        /**
         * The secret the day's seeds are derived from (HMAC-SHA256 key, its UTF-8 bytes), at least
         * {@code DailyChallenge.MIN_SECRET} characters ({@code BLOC_DAILY_SECRET}; for example
         * {@code openssl rand -base64 32}). Whoever knows it knows every future day's pieces.
         */
        String secret();
    }
}
