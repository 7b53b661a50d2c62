package com.bloceclat.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyFactory;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The local stack's secrets as {@code ./bloc secrets} and {@code ./bloc rotate-key} make them (platform/lib/secrets.sh,
 * docs/platform.md), run by the script's own functions on a state folder of the test's: bloc.env is the owner's only,
 * made once and then kept, completed when a value is missing; a rotation gives game-service a new key pair whose
 * halves match, and leaderboard-service keeps the old public key beside the new one.
 */
class BlocSecretsTest {

    private static final List<String> NAMES = List.of("BLOC_SIGNING_KEY_ID", "BLOC_SIGNING_PRIVATE_KEY",
            "BLOC_SIGNING_PUBLIC_KEYS", "BLOC_DAILY_SECRET", "KAFKA_ADMIN_PASSWORD", "KAFKA_GAME_SERVICE_PASSWORD",
            "KAFKA_LEADERBOARD_SERVICE_PASSWORD");

    @TempDir
    Path state;

    @Test
    void theSecretsAreMadeOnceTheOwnersOnlyAndCompletedWhenOneIsMissing() throws Exception {
        run("secrets_prepare");
        Path file = state.resolve("secrets/bloc.env");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        Map<String, String> first = read(file);
        for (String name : NAMES) {
            assertFalse(first.getOrDefault(name, "").isBlank(), name + " made");
        }
        assertMatchingPair(first.get("BLOC_SIGNING_PRIVATE_KEY"), publicKeys(first).get(first.get("BLOC_SIGNING_KEY_ID")));

        run("secrets_prepare");
        assertEquals(first, read(file), "a second run keeps every value");

        String kept = Files.readString(file).replaceAll("(?m)^BLOC_DAILY_SECRET=.*\\n", "");
        Files.writeString(file, kept);
        run("secrets_prepare");
        Map<String, String> completed = read(file);
        assertFalse(completed.get("BLOC_DAILY_SECRET").isBlank(), "the missing value made again");
        assertNotEquals(first.get("BLOC_DAILY_SECRET"), completed.get("BLOC_DAILY_SECRET"));
        completed.remove("BLOC_DAILY_SECRET");
        Map<String, String> others = new LinkedHashMap<>(first);
        others.remove("BLOC_DAILY_SECRET");
        assertEquals(others, completed, "the others kept");
    }

    @Test
    void aRotatedKeySignsWhatTheNewPublicKeyChecksAndTheOldOneIsStillAccepted() throws Exception {
        run("secrets_prepare");
        Path file = state.resolve("secrets/bloc.env");
        Map<String, String> before = read(file);
        Thread.sleep(1100); // a key id is its second: a rotation in the same second is refused
        run("cmd_rotate_key");
        Map<String, String> after = read(file);

        String oldId = before.get("BLOC_SIGNING_KEY_ID");
        String newId = after.get("BLOC_SIGNING_KEY_ID");
        assertNotEquals(oldId, newId);
        Map<String, String> accepted = publicKeys(after);
        assertEquals(List.of(oldId, newId), List.copyOf(accepted.keySet()), "the old key, then the new one");
        assertEquals(publicKeys(before).get(oldId), accepted.get(oldId), "the old public key unchanged");
        assertNotEquals(before.get("BLOC_SIGNING_PRIVATE_KEY"), after.get("BLOC_SIGNING_PRIVATE_KEY"));
        assertMatchingPair(after.get("BLOC_SIGNING_PRIVATE_KEY"), accepted.get(newId));
        for (String name : List.of("BLOC_DAILY_SECRET", "KAFKA_ADMIN_PASSWORD", "KAFKA_GAME_SERVICE_PASSWORD",
                "KAFKA_LEADERBOARD_SERVICE_PASSWORD")) {
            assertEquals(before.get(name), after.get(name), name + " kept by a rotation");
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
    }

    @Test
    void aLostPrivateKeyIsMadeAgainBesideTheKeysAlreadyAcceptedNeverInTheirPlace() throws Exception {
        run("secrets_prepare");
        Path file = state.resolve("secrets/bloc.env");
        Thread.sleep(1100); // a key id is its second
        run("cmd_rotate_key");
        Map<String, String> rotated = read(file);
        Files.writeString(file, Files.readString(file).replaceAll("(?m)^BLOC_SIGNING_PRIVATE_KEY=.*\\n", ""));
        Thread.sleep(1100);
        run("secrets_prepare");
        Map<String, String> after = read(file);

        // messages signed by either earlier key may still wait in Kafka or the outbox: both stay accepted
        Map<String, String> accepted = publicKeys(after);
        Map<String, String> before = publicKeys(rotated);
        String newId = after.get("BLOC_SIGNING_KEY_ID");
        assertFalse(before.containsKey(newId), "a key id of its own");
        Map<String, String> expected = new LinkedHashMap<>(before);
        expected.put(newId, accepted.get(newId));
        assertEquals(expected, accepted, "the keys accepted before, then the new one");
        assertMatchingPair(after.get("BLOC_SIGNING_PRIVATE_KEY"), accepted.get(newId));
    }

    @Test
    void aDailySecretMadeAgainSaysThatTheDaysChallengesChange() throws Exception {
        run("secrets_prepare");
        assertFalse(Files.readString(state.resolve("out.log")).contains("BLOC_DAILY_SECRET was missing"), "not on the first run");
        Path file = state.resolve("secrets/bloc.env");
        Files.writeString(file, Files.readString(file).replaceAll("(?m)^BLOC_DAILY_SECRET=.*\\n", ""));
        run("secrets_prepare");
        assertTrue(Files.readString(state.resolve("out.log")).contains("today's included"), Files.readString(state.resolve("out.log")));
    }

    /** BLOC_SIGNING_PUBLIC_KEYS as leaderboard-service reads it: {@code keyId:base64 X.509}, comma-separated. */
    private static Map<String, String> publicKeys(Map<String, String> env) {
        Map<String, String> keys = new LinkedHashMap<>();
        for (String entry : env.get("BLOC_SIGNING_PUBLIC_KEYS").split(",")) {
            int colon = entry.indexOf(':');
            keys.put(entry.substring(0, colon), entry.substring(colon + 1));
        }
        return keys;
    }

    private static void assertMatchingPair(String privateKey, String publicKey) throws Exception {
        KeyFactory ed = KeyFactory.getInstance("Ed25519");
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(ed.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(privateKey))));
        byte[] message = "game-finished".getBytes(StandardCharsets.UTF_8);
        signer.update(message);
        byte[] signature = signer.sign();
        Signature checker = Signature.getInstance("Ed25519");
        checker.initVerify(ed.generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(publicKey))));
        checker.update(message);
        assertTrue(checker.verify(signature), "the private key signs what the public key checks");
    }

    private static Map<String, String> read(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int eq = line.indexOf('=');
            if (!line.startsWith("#") && eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return values;
    }

    /** The script's function, with its state (and so its secrets and logs) in the test's folder. */
    private void run(String function) throws IOException, InterruptedException {
        int exit = BlocShell.run(state.resolve("out.log"),
                "STATE=\"$1\"; LOGS=\"$1/logs\"; source platform/lib/secrets.sh; " + function, state.toString());
        assertEquals(0, exit, function + ": " + Files.readString(state.resolve("out.log")));
    }
}
