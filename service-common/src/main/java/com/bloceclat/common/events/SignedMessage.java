package com.bloceclat.common.events;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;

/**
 * A message signed by the service that wrote it, as carried on a Kafka topic: the exact message text and an Ed25519
 * signature over its UTF-8 bytes, with the id of the key that made it (docs/events.md "Signed messages").
 *
 * <pre>{"keyId": "gs-2026-12", "signature": "&lt;base64&gt;", "message": "&lt;the message's JSON, as text&gt;"}</pre>
 *
 * The message travels as text, not as a nested object, so that what is verified is byte for byte what was signed,
 * whatever a JSON library does to numbers or key order on the way.
 *
 * <p>Guarantee: {@link Verifier#open} answers a message only when one of its trusted public keys verifies the
 * signature over exactly that text. It does not say the message is new (a signed message can be sent again: consumers
 * deduplicate by id) nor that its content is sane (consumers still check it).
 *
 * <p>Keys are configured as base64 DER: the private key PKCS#8, public keys X.509 SubjectPublicKeyInfo (for example
 * {@code openssl genpkey -algorithm ed25519 -outform DER | base64 -w0}).
 */
public record SignedMessage(String keyId, String signature, String message) {

    public static final String ALGORITHM = "Ed25519";

    /** Longest key id read. */
    static final int MAX_KEY_ID = 64;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    public String toJson() {
        return MAPPER.createObjectNode().put("keyId", keyId).put("signature", signature).put("message", message)
                .toString();
    }

    /**
     * Reads an envelope (not its message, nor its signature).
     *
     * @throws RefusedException "unsigned: …" when the text is not an envelope
     */
    public static SignedMessage fromJson(String json) {
        JsonNode root;
        try {
            root = json == null ? null : MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new RefusedException("unsigned: not JSON");
        }
        if (root == null || !root.isObject()) {
            throw new RefusedException("unsigned: not a signed envelope (a JSON object)");
        }
        String keyId = field(root, "keyId");
        if (keyId.length() > MAX_KEY_ID) {
            throw new RefusedException("unsigned: \"keyId\" is longer than " + MAX_KEY_ID + " characters");
        }
        return new SignedMessage(keyId, field(root, "signature"), field(root, "message"));
    }

    private static String field(JsonNode root, String name) {
        JsonNode value = root.get(name);
        if (value == null || value.getNodeType() != JsonNodeType.STRING || value.textValue().isEmpty()) {
            throw new RefusedException("unsigned: no \"" + name + "\" (a signed envelope has keyId, signature and "
                    + "message)");
        }
        return value.textValue();
    }

    /** Signs messages with one private key. Thread-safe. */
    public static final class Signer {

        private final String keyId;
        private final PrivateKey key;

        public Signer(String keyId, PrivateKey key) {
            if (keyId == null || keyId.isBlank() || keyId.length() > MAX_KEY_ID) {
                throw new IllegalArgumentException("a key id is 1 to " + MAX_KEY_ID + " characters");
            }
            this.keyId = keyId;
            this.key = key;
        }

        /** A signer for a base64 PKCS#8 DER Ed25519 private key. */
        public static Signer of(String keyId, String privateKeyBase64) {
            try {
                return new Signer(keyId, KeyFactory.getInstance(ALGORITHM)
                        .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(privateKeyBase64.trim()))));
            } catch (GeneralSecurityException | IllegalArgumentException e) {
                throw new IllegalArgumentException("not a base64 PKCS#8 Ed25519 private key: " + e.getMessage(), e);
            }
        }

        public String keyId() {
            return keyId;
        }

        /** The envelope's JSON text for {@code message}. */
        public String sign(String message) {
            try {
                Signature s = Signature.getInstance(ALGORITHM);
                s.initSign(key);
                s.update(message.getBytes(StandardCharsets.UTF_8));
                return new SignedMessage(keyId, Base64.getEncoder().encodeToString(s.sign()), message).toJson();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("cannot sign with key " + keyId, e);
            }
        }
    }

    /** Checks envelopes against a list of trusted public keys (several during a key rotation). Thread-safe. */
    public static final class Verifier {

        private final Map<String, PublicKey> keys;

        public Verifier(Map<String, PublicKey> keys) {
            this.keys = Map.copyOf(keys);
        }

        /**
         * A verifier for keys written {@code keyId:base64} (X.509 SubjectPublicKeyInfo DER of an Ed25519 public key).
         */
        public static Verifier of(List<String> keyIdAndBase64) {
            Map<String, PublicKey> keys = new LinkedHashMap<>();
            for (String entry : keyIdAndBase64) {
                int colon = entry.indexOf(':');
                if (colon <= 0) {
                    throw new IllegalArgumentException("a trusted key is written keyId:base64, not '" + entry + "'");
                }
                String id = entry.substring(0, colon).trim();
                PublicKey key;
                try {
                    key = KeyFactory.getInstance(ALGORITHM).generatePublic(
                            new X509EncodedKeySpec(Base64.getDecoder().decode(entry.substring(colon + 1).trim())));
                } catch (GeneralSecurityException | IllegalArgumentException e) {
                    throw new IllegalArgumentException("key " + entry.substring(0, colon)
                            + " is not a base64 X.509 Ed25519 public key: " + e.getMessage(), e);
                }
                // one id, two keys: only one could be kept, and the messages signed with the other would be refused
                PublicKey before = keys.putIfAbsent(id, key);
                if (before != null && !before.equals(key)) {
                    throw new IllegalArgumentException("key id " + id + " is listed twice with different keys: give "
                            + "the new key an id of its own (docs/platform.md, rotating the signing key)");
                }
            }
            return new Verifier(keys);
        }

        /**
         * The message of a correctly signed envelope.
         *
         * @throws RefusedException with the reason ("unsigned: …", "unknown key …", "bad signature …")
         */
        public String open(String envelopeJson) {
            SignedMessage envelope = fromJson(envelopeJson);
            PublicKey key = keys.get(envelope.keyId());
            if (key == null) {
                throw new RefusedException("unknown key '" + envelope.keyId() + "': not one of the trusted keys "
                        + keys.keySet());
            }
            byte[] signature;
            try {
                signature = Base64.getDecoder().decode(envelope.signature());
            } catch (IllegalArgumentException e) {
                throw new RefusedException("bad signature: not base64");
            }
            try {
                Signature s = Signature.getInstance(ALGORITHM);
                s.initVerify(key);
                s.update(envelope.message().getBytes(StandardCharsets.UTF_8));
                if (!s.verify(signature)) {
                    throw new RefusedException("bad signature: key '" + envelope.keyId()
                            + "' does not verify this message");
                }
            } catch (GeneralSecurityException e) {
                throw new RefusedException("bad signature: " + e.getMessage());
            }
            return envelope.message();
        }
    }

    /** A new Ed25519 key pair (tests; the local stack makes its pair with openssl). */
    public static KeyPair newKeyPair() {
        try {
            return KeyPairGenerator.getInstance(ALGORITHM).generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Base64 of a key's DER encoding (PKCS#8 for a private key, X.509 for a public key). */
    public static String base64(java.security.Key key) {
        return Base64.getEncoder().encodeToString(key.getEncoded());
    }

    /** An envelope that does not verify, with why. */
    public static class RefusedException extends RuntimeException {

        public RefusedException(String message) {
            super(message);
        }
    }
}
