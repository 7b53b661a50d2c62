package com.bloceclat.game;

import java.nio.charset.StandardCharsets;
import java.util.List;

import com.bloceclat.common.events.SignedMessage;

/**
 * The fixed, public test key pair and daily secret of the {@code %test} (and {@code %dev}) profile, in
 * application.properties; the packaged service in tests gets the same values as environment variables. Made with
 * {@code openssl genpkey -algorithm ed25519 -outform DER | base64 -w0} and
 * {@code openssl pkey -inform DER -pubout -outform DER | base64 -w0}. Never used outside tests and development.
 */
final class TestKeys {

    static final String KEY_ID = "test-2026";

    /** base64 PKCS#8 DER. */
    static final String PRIVATE_KEY = "MC4CAQAwBQYDK2VwBCIEIE/914MMk5oylWeI0cGskVuRwTmvtRVzfMb8QBh/YklN";

    /** base64 X.509 SubjectPublicKeyInfo DER, the public half of {@link #PRIVATE_KEY}. */
    static final String PUBLIC_KEY = "MCowBQYDK2VwAyEAy/K8QQddoD+yy2wEEiUCU3ivtUdK8SofoYEA3+IrOMk=";

    static final String DAILY_SECRET = "dev-and-test-daily-secret-not-for-prod";

    private TestKeys() {
    }

    /** A verifier trusting game-service's test key, as leaderboard-service's is configured. */
    static SignedMessage.Verifier verifier() {
        return SignedMessage.Verifier.of(List.of(KEY_ID + ":" + PUBLIC_KEY));
    }

    /** The message of a {@code game-finished} value, its signature checked with the test key. */
    static String open(String envelope) {
        return verifier().open(envelope);
    }

    static byte[] dailySecret() {
        return DAILY_SECRET.getBytes(StandardCharsets.UTF_8);
    }
}
