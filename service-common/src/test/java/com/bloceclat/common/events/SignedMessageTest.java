package com.bloceclat.common.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.security.KeyPair;
import java.util.List;

import org.junit.jupiter.api.Test;

import com.bloceclat.common.events.SignedMessage.RefusedException;
import com.bloceclat.common.events.SignedMessage.Signer;
import com.bloceclat.common.events.SignedMessage.Verifier;

class SignedMessageTest {

    static final KeyPair OLD = SignedMessage.newKeyPair();
    static final KeyPair NEW = SignedMessage.newKeyPair();
    static final String MESSAGE = "{\"schemaVersion\":2,\"score\":1520, \"note\":\"é\"}";

    static Verifier trusting(String... entries) {
        return Verifier.of(List.of(entries));
    }

    @Test
    void aSignedMessageOpensToExactlyItsText() {
        Signer signer = Signer.of("k1", SignedMessage.base64(OLD.getPrivate()));
        String envelope = signer.sign(MESSAGE);
        assertEquals(MESSAGE, trusting("k1:" + SignedMessage.base64(OLD.getPublic())).open(envelope));
    }

    @Test
    void duringARotationBothKeysAreTrusted() {
        Verifier both = trusting("k1:" + SignedMessage.base64(OLD.getPublic()),
                "k2:" + SignedMessage.base64(NEW.getPublic()));
        assertEquals(MESSAGE, both.open(new Signer("k1", OLD.getPrivate()).sign(MESSAGE)));
        assertEquals(MESSAGE, both.open(new Signer("k2", NEW.getPrivate()).sign(MESSAGE)));
    }

    @Test
    void everyForgeryIsRefusedWithItsReason() {
        Verifier verifier = trusting("k1:" + SignedMessage.base64(OLD.getPublic()));
        String good = new Signer("k1", OLD.getPrivate()).sign(MESSAGE);
        refused(verifier, MESSAGE, "unsigned: no \"keyId\"");
        refused(verifier, "not json", "unsigned: not JSON");
        refused(verifier, "[]", "unsigned: not a signed envelope");
        refused(verifier, new Signer("k9", OLD.getPrivate()).sign(MESSAGE), "unknown key 'k9'");
        // a key the verifier does not trust, under a trusted key's id
        refused(verifier, new Signer("k1", NEW.getPrivate()).sign(MESSAGE), "bad signature: key 'k1'");
        // the message changed after signing: one character of the score
        SignedMessage e = SignedMessage.fromJson(good);
        refused(verifier, new SignedMessage("k1", e.signature(), e.message().replace("1520", "1521")).toJson(),
                "bad signature");
        refused(verifier, new SignedMessage("k1", "%%%", e.message()).toJson(), "bad signature: not base64");
    }

    @Test
    void aKeyThatIsNotOneIsAConfigurationError() {
        assertThrows(IllegalArgumentException.class, () -> Signer.of("k", "bm90IGEga2V5"));
        assertThrows(IllegalArgumentException.class, () -> trusting("no-colon"));
        assertThrows(IllegalArgumentException.class, () -> trusting("k:bm90IGEga2V5"));
    }

    /**
     * One id listed twice with different keys (an operator who swapped the key but kept its id) stops the start-up:
     * only the last was kept, and every message still waiting under the other was refused as a bad signature.
     */
    @Test
    void oneKeyIdWithTwoDifferentKeysIsAConfigurationError() {
        String old = "k1:" + SignedMessage.base64(OLD.getPublic());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> trusting(old, "k1:" + SignedMessage.base64(NEW.getPublic())));
        assertTrue(e.getMessage().contains("k1"), e.getMessage());
        // the same key listed twice is the same trust
        assertEquals(MESSAGE, trusting(old, old).open(new Signer("k1", OLD.getPrivate()).sign(MESSAGE)));
    }

    private static void refused(Verifier verifier, String envelope, String expectedStart) {
        RefusedException e = assertThrows(RefusedException.class, () -> verifier.open(envelope));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }
}
